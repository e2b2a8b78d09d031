import type { CompareChange, CompareSummary } from "@svc/contracts";
import { type Database, validAt } from "@svc/db";
import { type Kysely, type RawBuilder, sql, type Transaction } from "kysely";

/** The two sides of a comparison: a (the baseline) and b, each an experiment pinned to a version. */
export interface ComparedPair {
  datasetId: string;
  a: { id: string; version: number };
  b: { id: string; version: number };
}

export interface ComparedRow {
  rowId: string;
  change: CompareChange;
  rank: number;
  rowChanged: boolean;
}

/**
 * Every row with a result in a or b, judged: regressed when a numeric or boolean score the two share
 * is lower in b, or when b failed where a did not; improved the other way round; added or removed
 * when only one side has a result. `row_changed`: the row's revision differs between the versions.
 * b's scores are probed by their key per score of a: an experiment still running is newer than the
 * table's statistics, which would count it as one row and loop over all of it for each of a's scores.
 */
function judgedRows(pair: ComparedPair): RawBuilder<unknown> {
  const revisionAt = (version: number) => sql`(
    SELECT r.version_from FROM row_revisions r
    WHERE r.dataset_id = ${pair.datasetId} AND r.row_id = p.row_id AND ${validAt("r", version)})`;
  return sql`
    WITH pairs AS (
      SELECT coalesce(a.row_id, b.row_id) AS row_id, a.row_version AS a_version, b.row_version AS b_version,
        a.row_id IS NOT NULL AS in_a, b.row_id IS NOT NULL AS in_b,
        a.error IS NOT NULL AS a_failed, b.error IS NOT NULL AS b_failed
      FROM (SELECT row_id, row_version, error FROM experiment_results WHERE experiment_id = ${pair.a.id}) a
      FULL JOIN (SELECT row_id, row_version, error FROM experiment_results WHERE experiment_id = ${pair.b.id}) b
        ON a.row_id = b.row_id
    ), deltas AS (
      SELECT sa.row_id, bool_or(sb.value_number < sa.value_number) AS worse,
        bool_or(sb.value_number > sa.value_number) AS better
      FROM experiment_scores sa
      JOIN LATERAL (
        SELECT value_number FROM experiment_scores
        WHERE experiment_id = ${pair.b.id} AND row_id = sa.row_id AND name = sa.name LIMIT 1
      ) sb ON true
      WHERE sa.experiment_id = ${pair.a.id} AND sa.row_id <> ''
        AND sa.value_number IS NOT NULL AND sb.value_number IS NOT NULL
      GROUP BY sa.row_id
    )
    SELECT j.row_id, j.change,
      CASE j.change WHEN 'regressed' THEN 0 WHEN 'improved' THEN 1 WHEN 'added' THEN 2 WHEN 'removed' THEN 3 ELSE 4 END AS rank,
      j.row_changed
    FROM (
      SELECT p.row_id,
        CASE
          WHEN NOT p.in_a THEN 'added'
          WHEN NOT p.in_b THEN 'removed'
          WHEN p.b_failed AND NOT p.a_failed THEN 'regressed'
          WHEN p.a_failed AND NOT p.b_failed THEN 'improved'
          WHEN d.worse THEN 'regressed'
          WHEN d.better THEN 'improved'
          ELSE 'same'
        END AS change,
        CASE
          WHEN p.in_a AND p.in_b THEN p.a_version <> p.b_version
          WHEN p.in_a THEN ${revisionAt(pair.b.version)} IS DISTINCT FROM p.a_version
          ELSE ${revisionAt(pair.a.version)} IS DISTINCT FROM p.b_version
        END AS row_changed
      FROM pairs p LEFT JOIN deltas d ON d.row_id = p.row_id
    ) j`;
}

/** A comparison as kept: its id, and its summary once it is complete. */
export interface KeptComparison {
  id: string;
  summary: CompareSummary | null;
}

/** How many times each experiment's results or scores were written (0 for none). */
export async function listExperimentRevisions(
  db: Kysely<Database>,
  experimentIds: readonly string[],
): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom("experiment_revisions")
    .select(["experiment_id", "revision"])
    .where("experiment_id", "in", experimentIds)
    .execute();
  return new Map(rows.map((row) => [row.experiment_id, String(row.revision)]));
}

/**
 * Counts a write to an experiment's results or scores, last in the writing transaction: the row lock
 * it takes orders the writers' revisions as they commit, so a revision read has every write up to it.
 */
export async function bumpExperimentRevision(
  trx: Transaction<Database>,
  experimentId: string,
): Promise<void> {
  await sql`
    INSERT INTO experiment_revisions (experiment_id, revision) VALUES (${experimentId}, 1)
    ON CONFLICT (experiment_id) DO UPDATE SET revision = experiment_revisions.revision + 1`.execute(trx);
}

/** The comparison kept for the pair at these revisions, if one was built. */
export async function findOptionalComparison(
  db: Kysely<Database>,
  key: ComparisonKey,
): Promise<KeptComparison | undefined> {
  const row = await db
    .selectFrom("experiment_comparisons")
    .select(["id", "summary"])
    .where("a_id", "=", key.aId)
    .where("b_id", "=", key.bId)
    .where("a_revision", "=", key.aRevision)
    .where("b_revision", "=", key.bRevision)
    .executeTakeFirst();
  return row && { id: String(row.id), summary: row.summary as CompareSummary | null };
}

/** A pair of experiments at the revisions it was compared at. */
export interface ComparisonKey {
  aId: string;
  bId: string;
  aRevision: string;
  bRevision: string;
}

/**
 * Claims the pair at these revisions for building: undefined when another request holds or has
 * built it (the insert waits for that one to end).
 */
export async function insertComparison(
  trx: Transaction<Database>,
  key: ComparisonKey,
): Promise<string | undefined> {
  const row = await sql<{ id: string }>`
    INSERT INTO experiment_comparisons (a_id, b_id, a_revision, b_revision)
    VALUES (${key.aId}, ${key.bId}, ${key.aRevision}, ${key.bRevision})
    ON CONFLICT (a_id, b_id, a_revision, b_revision) DO NOTHING
    RETURNING id::text`.execute(trx);
  return row.rows[0]?.id;
}

/**
 * Judges every row of the pair into the comparison, writes its summary, and drops the pair's
 * comparisons of earlier revisions. The rows are judged in a later snapshot than the revisions were
 * read in, so they hold at least what the label says; a later read of newer revisions builds again.
 */
export async function buildComparison(
  trx: Transaction<Database>,
  comparisonId: string,
  pair: ComparedPair,
): Promise<CompareSummary> {
  await sql`
    INSERT INTO experiment_compared_rows (comparison_id, rank, row_id, change, row_changed)
    SELECT ${comparisonId}, c.rank, c.row_id, c.change, c.row_changed FROM (${judgedRows(pair)}) c`.execute(
    trx,
  );
  const summary = await summarizeComparison(trx, comparisonId, pair);
  await trx
    .updateTable("experiment_comparisons")
    .set({ summary: JSON.stringify(summary) })
    .where("id", "=", comparisonId)
    .execute();
  await trx
    .deleteFrom("experiment_comparisons")
    .where("a_id", "=", pair.a.id)
    .where("b_id", "=", pair.b.id)
    .where("id", "<>", comparisonId)
    .execute();
  return summary;
}

/** A page of a kept comparison, in the order of rank, then row id. */
export async function listComparedRows(
  db: Kysely<Database>,
  comparisonId: string,
  page: {
    after: { rank: number; rowId: string } | undefined;
    limit: number;
    change: CompareChange | undefined;
  },
): Promise<ComparedRow[]> {
  let query = db
    .selectFrom("experiment_compared_rows")
    .select(["row_id", "change", "rank", "row_changed"])
    .where("comparison_id", "=", comparisonId);
  if (page.change !== undefined) query = query.where("rank", "=", RANKS[page.change]);
  if (page.after !== undefined) {
    const { rank, rowId } = page.after;
    query = query.where((eb) => eb(eb.refTuple("rank", "row_id"), ">", eb.tuple(rank, rowId)));
  }
  const rows = await query.orderBy("rank").orderBy("row_id").limit(page.limit).execute();
  return rows.map((row) => ({
    rowId: row.row_id,
    change: row.change as CompareChange,
    rank: row.rank,
    rowChanged: row.row_changed,
  }));
}

/** Where each change comes in a comparison: regressions first, unchanged rows last. */
const RANKS: Record<CompareChange, number> = { regressed: 0, improved: 1, added: 2, removed: 3, same: 4 };

/** The comparison's totals over every row, and each shared score's mean on both sides. */
async function summarizeComparison(
  trx: Transaction<Database>,
  comparisonId: string,
  pair: ComparedPair,
): Promise<CompareSummary> {
  const counts = await sql<{ change: CompareChange; rows: string; changed: string }>`
    SELECT change, count(*)::text AS rows, count(*) FILTER (WHERE row_changed)::text AS changed
    FROM experiment_compared_rows WHERE comparison_id = ${comparisonId} GROUP BY change`.execute(trx);
  const means = await sql<{ name: string; a: number | null; b: number | null }>`
    SELECT name,
      avg(value_number) FILTER (WHERE experiment_id = ${pair.a.id}) AS a,
      avg(value_number) FILTER (WHERE experiment_id = ${pair.b.id}) AS b
    FROM experiment_scores
    WHERE experiment_id IN (${pair.a.id}, ${pair.b.id}) AND row_id <> ''
    GROUP BY name
    HAVING count(*) FILTER (WHERE experiment_id = ${pair.a.id}) > 0
      AND count(*) FILTER (WHERE experiment_id = ${pair.b.id}) > 0
    ORDER BY name`.execute(trx);
  const summary: CompareSummary = {
    scores: Object.create(null),
    regressed: 0,
    improved: 0,
    same: 0,
    added: 0,
    removed: 0,
    rowsChanged: 0,
  };
  for (const row of counts.rows) {
    summary[row.change] = Number(row.rows);
    summary.rowsChanged += Number(row.changed);
  }
  for (const row of means.rows) {
    const a = row.a === null ? null : Number(row.a);
    const b = row.b === null ? null : Number(row.b);
    summary.scores[row.name] = { a, b, delta: a === null || b === null ? null : round(b - a) };
  }
  return summary;
}

const round = (value: number) => Math.round(value * 1e9) / 1e9;
