import type { DatasetVersion, OperationInput, operations, Page } from "@svc/contracts";
import { decodeCursor, encodeCursor, invalidCursor } from "@svc/contracts";
import { type Database, findDataset } from "@svc/db";
import type { Kysely } from "kysely";
import { z } from "zod";
import { toPage } from "../pagination";
import { listVersions } from "../repositories/versions";

const versionCursorSchema = z.strictObject({
  kind: z.literal("versions"),
  datasetId: z.string(),
  version: z.number().int().min(0),
});
type VersionCursor = z.infer<typeof versionCursorSchema>;

/** The dataset's versions, newest first. */
export async function listDatasetVersions(
  db: Kysely<Database>,
  organizationId: string,
  { params, query }: OperationInput<typeof operations.listDatasetVersions>,
): Promise<Page<DatasetVersion>> {
  const dataset = await findDataset(db, { organizationId, ...params });
  const before = query.cursor === undefined ? undefined : readCursor(query.cursor, dataset.id);
  const versions = await listVersions(db, { datasetId: dataset.id, before, limit: query.limit + 1 });
  return toPage(
    versions,
    query.limit,
    (version) => version,
    (version) =>
      encodeCursor({
        kind: "versions",
        datasetId: dataset.id,
        version: version.version,
      } satisfies VersionCursor),
  );
}

function readCursor(raw: string, datasetId: string): number {
  const cursor = decodeCursor(versionCursorSchema, raw);
  if (cursor.datasetId !== datasetId) {
    throw invalidCursor("was issued for another dataset's versions; start again without a cursor");
  }
  return cursor.version;
}
