import { type Database, type DatasetRecord, datasetColumns } from "@svc/db";
import { type Kysely, sql } from "kysely";
import { exactTimestamp } from "./db";

export type DatasetSortBy = "name" | "updatedAt";
export type SortDirection = "asc" | "desc";

export interface DatasetListQuery {
  projectId: string;
  sortBy: DatasetSortBy;
  direction: SortDirection;
  /** The sort value and id of the last dataset of the previous page. */
  after: { value: string; id: string } | undefined;
  limit: number;
}

/** A dataset with the exact value it was sorted by, for the next page's cursor. */
export interface SortedDatasetRecord extends DatasetRecord {
  sortValue: string;
}

/**
 * One page (plus one) of a project's datasets, ordered by the sort value, then id. Names sort without
 * regard to case, as they are unique without regard to case ("alpha" before "Bravo").
 */
export async function listDatasets(
  db: Kysely<Database>,
  query: DatasetListQuery,
): Promise<SortedDatasetRecord[]> {
  const sortColumn = query.sortBy === "name" ? sql<string>`lower(d.name)` : sql.ref("d.updated_at");
  const sortValue = query.sortBy === "name" ? sql<string>`lower(d.name)` : exactTimestamp("d.updated_at");
  const comparison = sql.raw(query.direction === "asc" ? ">" : "<");
  const after = query.after;
  return db
    .selectFrom("datasets as d")
    .select([...datasetColumns, sortValue.as("sortValue")])
    .where("d.project_id", "=", query.projectId)
    .$if(after !== undefined, (qb) =>
      qb.where(
        query.sortBy === "name"
          ? sql<boolean>`(lower(d.name), d.id) ${comparison} (${after?.value}, ${after?.id})`
          : sql<boolean>`(d.updated_at, d.id) ${comparison} (${after?.value}::timestamptz, ${after?.id})`,
      ),
    )
    .orderBy(sortColumn, query.direction)
    .orderBy("d.id", query.direction)
    .limit(query.limit)
    .execute();
}
