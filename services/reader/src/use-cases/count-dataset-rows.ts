import type { OperationInput, OperationOutput, operations } from "@svc/contracts";
import { countRowsAtVersion, type Database, findDataset } from "@svc/db";
import type { Kysely } from "kysely";
import { listColumns } from "../repositories/columns";
import { inSnapshot } from "../repositories/db";
import { countChangedMatches, countMatchingRows, countRowChanges } from "../repositories/row-counts";
import { versionNotFound } from "./errors";
import { type RowFilters, rowFiltersOf } from "./row-filters";

type CountRows = typeof operations.countDatasetRows;

/** A count made: how many rows of `version` a filter let through. */
interface KnownCount {
  version: number;
  count: number;
}

/**
 * Counts already made, by dataset and filter, the last one of each kept. A dataset version never
 * changes, so a count stays true; the count of another version is worked out from it and what changed
 * in between. Bounded: the least recently used filter goes first.
 */
export class RowCounts {
  readonly #known = new Map<string, KnownCount>();

  constructor(private readonly capacity = 1_000) {}

  get(key: string): KnownCount | undefined {
    const known = this.#known.get(key);
    if (known === undefined) return undefined;
    this.#known.delete(key);
    this.#known.set(key, known);
    return known;
  }

  set(key: string, known: KnownCount): void {
    this.#known.delete(key);
    this.#known.set(key, known);
    if (this.#known.size > this.capacity) {
      const oldest = this.#known.keys().next();
      if (!oldest.done) this.#known.delete(oldest.value);
    }
  }
}

/** Changes between two versions under which a count is worked out from a known one rather than made again. */
const FEW_CHANGES = 10_000;

/**
 * The exact number of rows of a version (the current one by default) that the list's filters let
 * through. Unfiltered, it is the version's own count. Filtered, it is made once per version and
 * filter and then followed: after an edit, the new count is the known one adjusted by the rows the
 * edit changed (costing what changed), unless more rows changed than the dataset holds, when counting
 * again reads less.
 */
export function countDatasetRows(counts: RowCounts) {
  return (
    db: Kysely<Database>,
    organizationId: string,
    { params, query }: OperationInput<CountRows>,
  ): Promise<OperationOutput<CountRows>> =>
    inSnapshot(db, async (trx) => {
      const dataset = await findDataset(trx, { organizationId, ...params });
      const version = query.version ?? dataset.version;
      if (version > dataset.version) throw versionNotFound(version, dataset.version);
      const columns = await listColumns(trx, dataset.id, { includeRemoved: false });
      // Checked even when there is nothing to count: a filter naming a wrong column is wrong either way.
      const filters = rowFiltersOf(query, columns);
      if (version === 0) return { count: 0, version };
      if (filters.search === undefined && filters.presence === undefined) {
        const count =
          version === dataset.version ? dataset.rowCount : await countRowsAtVersion(trx, dataset.id, version);
        return { count, version };
      }
      // The search reads the visible cells, which change with the columns and no version: part of the key.
      const key = JSON.stringify([dataset.id, filters]);
      const count = await followOrCount(trx, counts.get(key), {
        datasetId: dataset.id,
        version,
        current: version === dataset.version,
        rows: dataset.rowCount,
        ...filters,
      });
      counts.set(key, { version, count });
      return { count, version };
    });
}

async function followOrCount(
  db: Kysely<Database>,
  known: KnownCount | undefined,
  query: RowFilters & { datasetId: string; version: number; current: boolean; rows: number },
): Promise<number> {
  const { datasetId, version } = query;
  if (known === undefined) return countMatchingRows(db, query);
  if (known.version === version) return known.count;
  const from = Math.min(known.version, version);
  const to = Math.max(known.version, version);
  const changes = await countRowChanges(db, { datasetId, from, to });
  if (changes > FEW_CHANGES && changes > query.rows) return countMatchingRows(db, query);
  const { before, after } = await countChangedMatches(db, { ...query, from, to });
  // Forward from an older count: less what matched then, plus what matches now; backward, the reverse.
  return known.version < version ? known.count - before + after : known.count + before - after;
}
