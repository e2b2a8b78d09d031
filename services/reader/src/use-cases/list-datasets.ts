import {
  type Dataset,
  decodeCursor,
  encodeCursor,
  invalidCursor,
  type OperationInput,
  type operations,
  type Page,
  sortDirectionSchema,
} from "@svc/contracts";
import { type Database, findProjectId } from "@svc/db";
import type { Kysely } from "kysely";
import { z } from "zod";
import { toPage } from "../pagination";
import { listActiveColumnsByDataset } from "../repositories/columns";
import { listDatasets as listDatasetRecords } from "../repositories/datasets";
import { EXACT_TIMESTAMP_PATTERN } from "../repositories/db";
import { toDataset } from "./get-dataset";

const datasetCursorSchema = z
  .strictObject({
    kind: z.literal("datasets"),
    projectId: z.string(),
    sortBy: z.enum(["name", "updatedAt"]),
    sortDirection: sortDirectionSchema,
    value: z.string(),
    id: z.string(),
  })
  .refine((cursor) => cursor.sortBy === "name" || EXACT_TIMESTAMP_PATTERN.test(cursor.value));
type DatasetCursor = z.infer<typeof datasetCursorSchema>;

export async function listDatasets(
  db: Kysely<Database>,
  organizationId: string,
  { params, query }: OperationInput<typeof operations.listDatasets>,
): Promise<Page<Dataset>> {
  const projectId = await findProjectId(db, organizationId, params.projectSlug);
  const after = query.cursor === undefined ? undefined : readCursor(query.cursor, projectId, query);
  const records = await listDatasetRecords(db, {
    projectId,
    sortBy: query.sortBy,
    direction: query.sortDirection,
    after,
    limit: query.limit + 1,
  });
  const columns = await listActiveColumnsByDataset(
    db,
    records.map((record) => record.id),
  );
  return toPage(
    records,
    query.limit,
    (record) => toDataset(record, columns.get(record.id) ?? []),
    (record) =>
      encodeCursor({
        kind: "datasets",
        projectId,
        sortBy: query.sortBy,
        sortDirection: query.sortDirection,
        value: record.sortValue,
        id: record.id,
      } satisfies DatasetCursor),
  );
}

function readCursor(
  raw: string,
  projectId: string,
  query: Pick<DatasetCursor, "sortBy" | "sortDirection">,
): { value: string; id: string } {
  const cursor = decodeCursor(datasetCursorSchema, raw);
  if (cursor.projectId !== projectId) {
    throw invalidCursor("was issued for another project's list; start again without a cursor");
  }
  if (cursor.sortBy !== query.sortBy || cursor.sortDirection !== query.sortDirection) {
    throw invalidCursor(
      `was issued for sortBy=${cursor.sortBy}&sortDirection=${cursor.sortDirection}; repeat those with the cursor, or start again without one`,
    );
  }
  return { value: cursor.value, id: cursor.id };
}
