import { type Database, liveRowsAt, revisionsAt, validAt } from "@svc/db";
import { type Kysely, sql } from "kysely";
import { filtered, type RowPageQuery } from "./rows";

/** The filters a count applies, as a row page applies them. */
type CountFilters = Pick<RowPageQuery, "search" | "presence">;

const counted = sql<string>`count(*)`.as("count");

/**
 * The rows of the dataset at `version` that the filters let through, all of them: the live rows
 * when `version` is the current one and there is no search (the partial indexes of "missing"
 * serve them), else the revisions valid then (which carry the search's trigram index).
 */
export async function countMatchingRows(
  db: Kysely<Database>,
  query: CountFilters & { datasetId: string; version: number; current: boolean },
): Promise<number> {
  const rows =
    query.current && query.search === undefined
      ? liveRowsAt(db, query.datasetId, query.version)
      : revisionsAt(db, query.datasetId, query.version);
  const { count } = await filtered(rows, query).select(counted).executeTakeFirstOrThrow();
  return Number(count);
}

/**
 * Of the rows whose state changed between versions `from` and `to` (from < to), how many the filters
 * let through at `from` (`before`) and at `to` (`after`): a count at `to` is the count at `from`,
 * less `before`, plus `after`. It reads only the revisions that ended or started in between (the
 * (dataset_id, version_to) and (dataset_id, version_from) indexes), so it costs what changed.
 */
export async function countChangedMatches(
  db: Kysely<Database>,
  query: CountFilters & { datasetId: string; from: number; to: number },
): Promise<{ before: number; after: number }> {
  const { datasetId, from, to } = query;
  const revisions = db.selectFrom("row_revisions as r").where("r.dataset_id", "=", datasetId);
  // Valid at `from`, and ended by `to`: the row read otherwise at `to`, or not at all.
  const ended = revisions
    .where("r.version_to", ">", from)
    .where("r.version_to", "<=", to)
    .where(validAt("r", from));
  // Valid at `to`, and started after `from`.
  const started = revisions.where("r.version_from", ">", from).where(validAt("r", to));
  const before = await filtered(ended, query).select(counted).executeTakeFirstOrThrow();
  const after = await filtered(started, query).select(counted).executeTakeFirstOrThrow();
  return { before: Number(before.count), after: Number(after.count) };
}

/** How many row changes (inserted, updated, deleted) the versions after `from` up to `to` made. */
export async function countRowChanges(
  db: Kysely<Database>,
  query: { datasetId: string; from: number; to: number },
): Promise<number> {
  const { changes } = await db
    .selectFrom("dataset_versions")
    .select(sql<string>`coalesce(sum(rows_inserted + rows_updated + rows_deleted), 0)`.as("changes"))
    .where("dataset_id", "=", query.datasetId)
    .where("version", ">", query.from)
    .where("version", "<=", query.to)
    .executeTakeFirstOrThrow();
  return Number(changes);
}
