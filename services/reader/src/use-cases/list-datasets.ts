import {
  type Dataset,
  listCursors,
  type OperationInput,
  type operations,
  type Page,
  sortDirectionSchema,
} from "@svc/contracts";
import { type Database, findProjectId } from "@svc/db";
import type { Kysely } from "kysely";
import { z } from "zod";
import { listActiveColumnsByDataset } from "../repositories/columns";
import { listDatasets as listDatasetRecords } from "../repositories/datasets";
import { EXACT_TIMESTAMP_PATTERN } from "../repositories/db";
import { toDataset } from "./get-dataset";

const datasetCursors = listCursors(
  z
    .strictObject({
      kind: z.literal("datasets"),
      projectId: z.string(),
      sortBy: z.enum(["name", "updatedAt"]),
      sortDirection: sortDirectionSchema,
      value: z.string(),
      id: z.string(),
    })
    .refine((cursor) => cursor.sortBy === "name" || EXACT_TIMESTAMP_PATTERN.test(cursor.value)),
);

export async function listDatasets(
  db: Kysely<Database>,
  organizationId: string,
  { params, query }: OperationInput<typeof operations.listDatasets>,
): Promise<Page<Dataset>> {
  const projectId = await findProjectId(db, organizationId, params.projectSlug);
  const { sortBy, sortDirection } = query;
  const after = datasetCursors.read(query.cursor, (cursor) => {
    if (cursor.projectId !== projectId) {
      return "was issued for another project's list; start again without a cursor";
    }
    if (cursor.sortBy !== sortBy || cursor.sortDirection !== sortDirection) {
      return `was issued for sortBy=${cursor.sortBy}&sortDirection=${cursor.sortDirection}; repeat those with the cursor, or start again without one`;
    }
    return undefined;
  });
  const records = await listDatasetRecords(db, {
    projectId,
    sortBy,
    direction: sortDirection,
    after,
    limit: query.limit + 1,
  });
  const columns = await listActiveColumnsByDataset(
    db,
    records.map((record) => record.id),
  );
  return datasetCursors.page(
    records,
    query.limit,
    (record) => toDataset(record, columns.get(record.id) ?? []),
    (record) => ({
      kind: "datasets",
      projectId,
      sortBy,
      sortDirection,
      value: record.sortValue,
      id: record.id,
    }),
  );
}
