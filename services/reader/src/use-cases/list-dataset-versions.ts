import type { DatasetVersion, OperationInput, operations, Page } from "@svc/contracts";
import { listCursors } from "@svc/contracts";
import { type Database, findDataset } from "@svc/db";
import type { Kysely } from "kysely";
import { z } from "zod";
import { listVersions } from "../repositories/versions";

const versionCursors = listCursors(
  z.strictObject({
    kind: z.literal("versions"),
    datasetId: z.string(),
    version: z.number().int().min(0),
  }),
);

/** The dataset's versions, newest first. */
export async function listDatasetVersions(
  db: Kysely<Database>,
  organizationId: string,
  { params, query }: OperationInput<typeof operations.listDatasetVersions>,
): Promise<Page<DatasetVersion>> {
  const dataset = await findDataset(db, { organizationId, ...params });
  const before = versionCursors.read(query.cursor, (cursor) =>
    cursor.datasetId === dataset.id
      ? undefined
      : "was issued for another dataset's versions; start again without a cursor",
  );
  const versions = await listVersions(db, {
    datasetId: dataset.id,
    before: before?.version,
    limit: query.limit + 1,
  });
  return versionCursors.page(
    versions,
    query.limit,
    (version) => version,
    (version) => ({ kind: "versions", datasetId: dataset.id, version: version.version }),
  );
}
