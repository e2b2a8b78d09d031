import { type DatasetColumn, isBuiltinField } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";

interface StoredColumn {
  dataset_id: string;
  identifier: string;
  name: string;
  kind: string;
  field: string | null;
  removed_at: Date | null;
}

/** A dataset's columns in display order; removed ones only when asked, marked `removed: true`. */
export async function listColumns(
  db: Kysely<Database>,
  datasetId: string,
  { includeRemoved }: { includeRemoved: boolean },
): Promise<DatasetColumn[]> {
  const rows = await selectColumns(db, [datasetId])
    .$if(!includeRemoved, (qb) => qb.where("removed_at", "is", null))
    .execute();
  return rows.map(toColumn);
}

/** The active columns of several datasets at once, keyed by dataset id, each list in display order. */
export async function listActiveColumnsByDataset(
  db: Kysely<Database>,
  datasetIds: readonly string[],
): Promise<Map<string, DatasetColumn[]>> {
  const byDataset = new Map<string, DatasetColumn[]>(datasetIds.map((id) => [id, []]));
  if (datasetIds.length === 0) return byDataset;
  const rows = await selectColumns(db, datasetIds).where("removed_at", "is", null).execute();
  for (const row of rows) byDataset.get(row.dataset_id)?.push(toColumn(row));
  return byDataset;
}

function selectColumns(db: Kysely<Database>, datasetIds: readonly string[]) {
  return db
    .selectFrom("dataset_columns")
    .select(["dataset_id", "identifier", "name", "kind", "field", "removed_at"])
    .where("dataset_id", "in", datasetIds)
    .orderBy("dataset_id")
    .orderBy("position")
    .orderBy("identifier");
}

function toColumn(row: StoredColumn): DatasetColumn {
  return {
    identifier: row.identifier,
    name: row.name,
    source: sourceOf(row),
    ...(row.removed_at !== null ? { removed: true } : {}),
  };
}

function sourceOf(row: StoredColumn): DatasetColumn["source"] {
  if (row.kind === "custom") return { kind: "custom" };
  if (row.kind === "builtin" && row.field !== null && isBuiltinField(row.field)) {
    return { kind: "builtin", field: row.field };
  }
  throw new Error(`Column ${row.identifier} of dataset ${row.dataset_id} has no valid source`);
}
