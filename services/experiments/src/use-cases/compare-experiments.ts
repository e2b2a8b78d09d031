import {
  type Caller,
  type CompareEntry,
  type CompareSummary,
  listCursors,
  type OperationInput,
  type operations,
  type Page,
  validationError,
} from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { z } from "zod";
import {
  buildComparison,
  type ComparedPair,
  type ComparisonKey,
  findOptionalComparison,
  insertComparison,
  type KeptComparison,
  listComparedRows,
  listExperimentRevisions,
} from "../repositories/compare";
import { findExperiment } from "../repositories/experiments";
import { listResultsOfRows, listScoresOfRows } from "../repositories/results";
import { toResult } from "./result-view";

const cursors = listCursors(
  z.object({
    pair: z.string(),
    change: z.string().nullable(),
    rank: z.number().int(),
    rowId: z.string(),
  }),
);

/** Two experiments of one dataset side by side: every row judged, regressions first, and the totals. */
export async function compareExperiments(
  db: Kysely<Database>,
  caller: Caller,
  { params, query }: OperationInput<typeof operations.compareExperiments>,
): Promise<Page<CompareEntry> & { summary: CompareSummary }> {
  const ref = { organizationId: caller.organizationId, projectSlug: params.projectSlug };
  const a = await findExperiment(db, { ...ref, experimentId: params.experimentId });
  const b = await findExperiment(db, { ...ref, experimentId: params.otherExperimentId });
  if (a.datasetId !== b.datasetId) {
    throw validationError(
      [
        {
          code: "custom",
          path: ["otherExperimentId"],
          message: "ran on another dataset than the first experiment; compare two experiments of one dataset",
          input: undefined,
        },
      ],
      ["path"],
    );
  }
  const pairKey = `${a.id}:${b.id}`;
  const change = query.change ?? null;
  const cursor = cursors.read(query.cursor, (c) =>
    c.pair !== pairKey
      ? "was issued for another comparison"
      : c.change !== change
        ? "was issued for another change filter; repeat the first page's change with it"
        : undefined,
  );
  const pair: ComparedPair = {
    datasetId: a.datasetId,
    a: { id: a.id, version: a.version },
    b: { id: b.id, version: b.version },
  };
  const comparison = await keptComparison(db, pair);
  const rows = await listComparedRows(db, comparison.id, {
    after: cursor && { rank: cursor.rank, rowId: cursor.rowId },
    limit: query.limit + 1,
    change: query.change,
  });
  const rowIds = rows.slice(0, query.limit).map((row) => row.rowId);
  const pinnedA = { experimentId: a.id, datasetId: a.datasetId, version: a.version };
  const pinnedB = { experimentId: b.id, datasetId: b.datasetId, version: b.version };
  const [resultsA, resultsB, scoresA, scoresB] = await Promise.all([
    listResultsOfRows(db, pinnedA, rowIds),
    listResultsOfRows(db, pinnedB, rowIds),
    listScoresOfRows(db, a.id, rowIds),
    listScoresOfRows(db, b.id, rowIds),
  ]);
  const page = cursors.page(
    rows,
    query.limit,
    (row): CompareEntry => {
      const resultA = resultsA.get(row.rowId);
      const resultB = resultsB.get(row.rowId);
      return {
        rowId: row.rowId,
        change: row.change,
        rowChanged: row.rowChanged,
        a: resultA ? toResult(resultA, scoresA.get(row.rowId)) : null,
        b: resultB ? toResult(resultB, scoresB.get(row.rowId)) : null,
      };
    },
    (row) => ({ pair: pairKey, change, rank: row.rank, rowId: row.rowId }),
  );
  return { ...page, summary: comparison.summary };
}

/**
 * The pair's comparison at the two experiments' current revisions: the kept one, or one built now
 * (once per pair and revisions: a request that finds another building it waits for that one).
 */
async function keptComparison(
  db: Kysely<Database>,
  pair: ComparedPair,
): Promise<KeptComparison & { summary: CompareSummary }> {
  const revisions = await listExperimentRevisions(db, [pair.a.id, pair.b.id]);
  const key: ComparisonKey = {
    aId: pair.a.id,
    bId: pair.b.id,
    aRevision: revisions.get(pair.a.id) ?? "0",
    bRevision: revisions.get(pair.b.id) ?? "0",
  };
  for (;;) {
    const kept = await findOptionalComparison(db, key);
    if (kept?.summary) return { id: kept.id, summary: kept.summary };
    const built = await db.transaction().execute(async (trx) => {
      const id = await insertComparison(trx, key);
      return id === undefined ? undefined : { id, summary: await buildComparison(trx, id, pair) };
    });
    if (built) return built;
  }
}
