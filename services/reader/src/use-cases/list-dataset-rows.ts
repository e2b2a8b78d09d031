import {
  cursorFingerprint,
  type DatasetRow,
  DomainError,
  listCursors,
  type OperationInput,
  type operations,
  type Page,
  sortDirectionSchema,
} from "@svc/contracts";
import { type Database, type DatasetRecord, findDataset, visibilityOf } from "@svc/db";
import type { Kysely } from "kysely";
import { z } from "zod";
import { listColumns } from "../repositories/columns";
import { EXACT_TIMESTAMP_PATTERN, inSnapshot } from "../repositories/db";
import { listCurrentRows, listRowsAtVersion, type RowKey, type RowPageQuery } from "../repositories/rows";
import { versionNotFound } from "./errors";
import { presenceKey, rowFiltersOf } from "./row-filters";
import { toDatasetRow } from "./visible-cells";

type ListRowsInput = OperationInput<typeof operations.listDatasetRows>;
type ListRowsQuery = ListRowsInput["query"];

/**
 * A cursor pins the version its first page read, so every later page reads that same version: one
 * consistent snapshot while others edit. It carries a fingerprint of the search, not the search
 * itself, to stay short whatever the search.
 */
const rowCursorSchema = z.strictObject({
  kind: z.literal("rows"),
  datasetId: z.string(),
  version: z.number().int().min(0),
  createdAt: z.string().regex(EXACT_TIMESTAMP_PATTERN),
  rowId: z.string().min(1).max(128),
  search: z.string().nullable(),
  /** A fingerprint of `missing` and `present`; absent from cursors issued before they existed. */
  filters: z.string().nullable().optional(),
  sortDirection: sortDirectionSchema,
});
type RowCursor = z.infer<typeof rowCursorSchema>;
const rowCursors = listCursors(rowCursorSchema);

export async function listDatasetRows(
  db: Kysely<Database>,
  organizationId: string,
  { params, query }: ListRowsInput,
): Promise<Page<DatasetRow>> {
  return inSnapshot(db, async (trx) => {
    const dataset = await findDataset(trx, { organizationId, ...params });
    const { version, after } = startOf(query, dataset);
    const columns = await listColumns(trx, dataset.id, { includeRemoved: false });
    // Checked even when there is nothing to list: a filter naming a wrong column is wrong either way.
    const filters = rowFiltersOf(query, columns);
    if (version === 0) return { items: [], nextCursor: null, hasMore: false };
    const visibility = visibilityOf(columns);
    const page: RowPageQuery = {
      datasetId: dataset.id,
      direction: query.sortDirection,
      after,
      limit: query.limit + 1,
      offset: query.offset,
      ...filters,
    };
    // The live table answers for the current version; history answers once the dataset has moved on,
    // and for a search at any version: the revisions carry the trigram index a rare term is found by
    // (docs/decisions/0046-row-search.md), and the live revisions are the live rows.
    const records =
      version === dataset.version && page.search === undefined
        ? await listCurrentRows(trx, { ...page, version })
        : await listRowsAtVersion(trx, { ...page, version });
    return rowCursors.page(
      records,
      query.limit,
      (record) => toDatasetRow(dataset.id, record, visibility),
      (record) => cursorAfter(dataset.id, version, record.key, query),
    );
  });
}

function cursorAfter(datasetId: string, version: number, key: RowKey, query: ListRowsQuery): RowCursor {
  return {
    kind: "rows",
    datasetId,
    version,
    createdAt: key.createdAt,
    rowId: key.rowId,
    search: cursorFingerprint(query.search),
    filters: cursorFingerprint(presenceKey(query)),
    sortDirection: query.sortDirection,
  };
}

/** The version a page reads and the row it starts after: from the cursor, or from the query. */
function startOf(query: ListRowsQuery, dataset: DatasetRecord): { version: number; after?: RowKey } {
  if (query.cursor !== undefined && query.offset !== undefined) {
    throw new DomainError(
      "validation_failed",
      "offset starts a list at a position and a cursor goes on from a page: give one or the other",
      { issues: [{ path: "query.offset", message: "cannot be combined with cursor", code: "custom" }] },
    );
  }
  const cursor = rowCursors.read(query.cursor, (cursor) => refusalOf(cursor, query, dataset));
  if (cursor !== undefined) {
    return { version: cursor.version, after: { createdAt: cursor.createdAt, rowId: cursor.rowId } };
  }
  const version = query.version ?? dataset.version;
  if (version > dataset.version) throw versionNotFound(version, dataset.version);
  return { version };
}

/** Why a cursor does not go on with the rows asked for, if it does not: another dataset, search or version. */
function refusalOf(cursor: RowCursor, query: ListRowsQuery, dataset: DatasetRecord): string | undefined {
  if (cursor.datasetId !== dataset.id || cursor.version > dataset.version) {
    return "was issued for another dataset's rows; start again without a cursor";
  }
  if (
    cursor.sortDirection !== query.sortDirection ||
    cursor.search !== cursorFingerprint(query.search) ||
    (cursor.filters ?? null) !== cursorFingerprint(presenceKey(query))
  ) {
    return "was issued for a different search, missing, present, where or sortDirection; repeat the first page's with its cursor, or start again without one";
  }
  if (query.version !== undefined && query.version !== cursor.version) {
    return `reads version ${cursor.version}, not version ${query.version}; drop version or the cursor`;
  }
  return undefined;
}
