import { type Actor, type VersionOperation, versionOperationSchema } from "@svc/contracts";
import {
  actorNameOf,
  actorOf,
  type CellPresence,
  type CellSearch,
  type Database,
  isValidAt,
  liveRowsAt,
  matchesPresence,
  matchesSearch,
  type RowCells,
  revisionsAt,
  rowCellsOf,
  type StoredCells,
  selectedCells,
} from "@svc/db";
import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from "kysely";
import type { SortDirection } from "./datasets";
import { exactTimestamp } from "./db";

/** The position of a row in creation order: its exact creation time, then its id. */
export interface RowKey {
  createdAt: string;
  rowId: string;
}

export interface RowRecord {
  rowId: string;
  createdAt: Date;
  key: RowKey;
  /** The dataset version that last changed the row, as of the version read. */
  version: number;
  cells: RowCells;
}

export interface RowPageQuery {
  datasetId: string;
  direction: SortDirection;
  after: RowKey | undefined;
  limit: number;
  /** Rows of the list to skip first: a jump to a position (only without `after`). */
  offset?: number | undefined;
  search: CellSearch | undefined;
  presence?: CellPresence | undefined;
}

export interface RevisionRecord {
  version: number;
  versionId: string;
  createdAt: Date;
  operation: VersionOperation;
  actor: Actor;
  /** Null for the tombstone a deletion leaves. */
  cells: RowCells | null;
}

interface StoredRow extends StoredCells {
  row_id: string;
  created_key: string;
  version: number;
}

const cellSelection = [
  "r.row_id",
  ...selectedCells,
  // The creation time is read once, as exact text (the page key); the Date is made from it, which
  // costs a tenth of the driver's own parse of a timestamptz (an export reads a million of them).
  exactTimestamp("r.created_at").as("created_key"),
] as const;

/** A page (of `limit` rows) of the dataset as it is now, at its current `version`, in creation order. */
export async function listCurrentRows(
  db: Kysely<Database>,
  query: RowPageQuery & { version: number },
): Promise<RowRecord[]> {
  const listed = () => filtered(liveRowsAt(db, query.datasetId, query.version), query);
  const rows = await inPage(
    listed().select([...cellSelection, "r.version"]),
    listed().select(keyColumns),
    query,
  ).execute();
  return rows.map(toRowRecord);
}

/**
 * A page of the dataset as it was at `version`: the revisions valid then. It walks the
 * (dataset_id, created_at, row_id, version_from) index from the page's start, so it costs what the
 * page holds, not the size of the dataset.
 */
export async function listRowsAtVersion(
  db: Kysely<Database>,
  query: RowPageQuery & { version: number },
): Promise<RowRecord[]> {
  const listed = () => filtered(revisionsAt(db, query.datasetId, query.version), query);
  const rows = await inPage(
    listed().select([...cellSelection, "r.version_from as version"]),
    listed().select(keyColumns),
    query,
  ).execute();
  return rows.map(toRowRecord);
}

/** Only the rows the query's search and presence filters let through. */
export function filtered<T extends Filterable<T>>(
  rows: T,
  { search, presence }: Pick<RowPageQuery, "search" | "presence">,
): T {
  const searched = search === undefined ? rows : rows.where(matchesSearch(search));
  return presence === undefined ? searched : searched.where(matchesPresence(presence));
}
type Filterable<T> = { where(condition: Expression<SqlBool>): T };

/**
 * The page of `rows` the query asks for, in the page's order, `limit` rows at most: after its
 * cursor's row, or from the row at its offset, found among `keys` (the same rows' keys alone).
 */
function inPage<T extends Pageable<T>, K extends Positions<K>>(rows: T, keys: K, query: RowPageQuery): T {
  const after = query.after === undefined ? rows : rows.where(afterKey(query));
  const offset = query.offset ?? 0;
  const started =
    offset > 0 ? after.where(fromKey(query, inOrder(keys, query).offset(offset).limit(1))) : after;
  return inOrder(started, query).limit(query.limit);
}
type Pageable<T> = Filterable<T> & OrderableByKey<T> & { limit(limit: number): T };
type Positions<K> = OrderableByKey<K> & {
  offset(offset: number): K;
  limit(limit: number): K;
} & Expression<unknown>;

const keyColumns = ["r.created_at", "r.row_id"] as const;

/** A list in the page's order: creation time, then row id, either way. */
function inOrder<T extends OrderableByKey<T>>(list: T, { direction }: RowPageQuery): T {
  return list.orderBy("r.created_at", direction).orderBy("r.row_id", direction);
}
type OrderableByKey<T> = { orderBy(column: "r.created_at" | "r.row_id", direction: SortDirection): T };

/**
 * From the row at `offset` in the list's order on: the key of that row is found first, reading only
 * keys (no cells), and the page starts there, so a jump half-way down a million rows skips the
 * million keys, not the million rows' cells.
 */
function fromKey({ direction }: RowPageQuery, position: Expression<unknown>): RawBuilder<SqlBool> {
  const comparison = sql.raw(direction === "asc" ? ">=" : "<=");
  return sql<SqlBool>`(r.created_at, r.row_id) ${comparison} (${position})`;
}

/** The row as it is now, at the dataset's current `version`. */
export async function findOptionalCurrentRow(
  db: Kysely<Database>,
  datasetId: string,
  rowId: string,
  version: number,
): Promise<RowRecord | undefined> {
  const row = await liveRowsAt(db, datasetId, version)
    .select([...cellSelection, "r.version"])
    .where("r.row_id", "=", rowId)
    .executeTakeFirst();
  return row && toRowRecord(row);
}

/** The row as it was at `version`; undefined when it did not exist then or had been deleted. */
export async function findOptionalRowAtVersion(
  db: Kysely<Database>,
  datasetId: string,
  rowId: string,
  version: number,
): Promise<RowRecord | undefined> {
  // The latest revision that started by then makes the row then, if it is still valid then.
  const row = await db
    .selectFrom("row_revisions as r")
    .select([...cellSelection, "r.version_from as version", "r.version_to", "r.deleted"])
    .where("r.dataset_id", "=", datasetId)
    .where("r.row_id", "=", rowId)
    .where("r.version_from", "<=", version)
    .orderBy("r.version_from", "desc")
    .limit(1)
    .executeTakeFirst();
  return row && isValidAt(row, version) ? toRowRecord(row) : undefined;
}

/** A page (of `limit`) of one row's revisions, newest first, each with the version that made it. */
export async function listRowRevisions(
  db: Kysely<Database>,
  query: { datasetId: string; rowId: string; before: number | undefined; limit: number },
): Promise<RevisionRecord[]> {
  const before = query.before;
  const rows = await db
    .selectFrom("row_revisions as r")
    .innerJoin("dataset_versions as v", (join) =>
      join.onRef("v.dataset_id", "=", "r.dataset_id").onRef("v.version", "=", "r.version_from"),
    )
    .select([
      ...cellSelection,
      "r.version_from as version",
      "r.deleted",
      "v.id as version_id",
      "v.created_at as version_created_at",
      "v.operation",
      "v.actor_kind",
      "v.actor_id",
      actorNameOf("v.actor_kind", "v.actor_id").as("actor_name"),
    ])
    .where("r.dataset_id", "=", query.datasetId)
    .where("r.row_id", "=", query.rowId)
    .$if(before !== undefined, (qb) => qb.where("r.version_from", "<", before ?? 0))
    .orderBy("r.version_from", "desc")
    .limit(query.limit)
    .execute();
  return rows.map((row) => ({
    version: row.version,
    versionId: row.version_id,
    createdAt: row.version_created_at,
    operation: versionOperationSchema.parse(row.operation),
    actor: actorOf(row.actor_kind, row.actor_id, row.actor_name),
    cells: row.deleted ? null : toRowRecord(row).cells,
  }));
}

/** The rows after `after` in the list's order. */
export function afterKey({
  after,
  direction,
}: Pick<RowPageQuery, "after" | "direction">): RawBuilder<SqlBool> {
  const comparison = sql.raw(direction === "asc" ? ">" : "<");
  return sql<SqlBool>`(r.created_at, r.row_id) ${comparison} (${after?.createdAt}::timestamptz, ${after?.rowId})`;
}

function toRowRecord(row: StoredRow): RowRecord {
  return {
    rowId: row.row_id,
    createdAt: new Date(row.created_key),
    key: { createdAt: row.created_key, rowId: row.row_id },
    version: row.version,
    cells: rowCellsOf(row),
  };
}
