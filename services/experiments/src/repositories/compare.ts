import type { CompareChange, CompareSummary } from "@svc/contracts";
import type { Database } from "@svc/db";
import { type Kysely, type RawBuilder, sql } from "kysely";

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
 */
function judgedRows(pair: ComparedPair): RawBuilder<unknown> {
  const revisionAt = (version: number) => sql`(
    SELECT r.version_from FROM row_revisions r
    WHERE r.dataset_id = ${pair.datasetId} AND r.row_id = p.row_id AND r.version_from <= ${version}
      AND (r.version_to IS NULL OR r.version_to > ${version}) AND NOT r.deleted)`;
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
      JOIN experiment_scores sb ON sb.experiment_id = ${pair.b.id} AND sb.row_id = sa.row_id AND sb.name = sa.name
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

/** A page of the comparison, in the order of `changeRank`, then row id. */
export async function listComparedRows(
  db: Kysely<Database>,
  pair: ComparedPair,
  page: {
    after: { rank: number; rowId: string } | undefined;
    limit: number;
    change: CompareChange | undefined;
  },
): Promise<ComparedRow[]> {
  const conditions = [
    page.after ? sql`(c.rank, c.row_id) > (${page.after.rank}, ${page.after.rowId})` : sql`TRUE`,
    page.change ? sql`c.change = ${page.change}` : sql`TRUE`,
  ];
  const { rows } = await sql<{ row_id: string; change: CompareChange; rank: number; row_changed: boolean }>`
    SELECT c.row_id, c.change, c.rank, c.row_changed FROM (${judgedRows(pair)}) c
    WHERE ${sql.join(conditions, sql` AND `)}
    ORDER BY c.rank, c.row_id
    LIMIT ${page.limit}`.execute(db);
  return rows.map((row) => ({
    rowId: row.row_id,
    change: row.change,
    rank: Number(row.rank),
    rowChanged: row.row_changed === true,
  }));
}

/** The comparison's totals over every row, and each shared score's mean on both sides. */
export async function summarizeComparison(db: Kysely<Database>, pair: ComparedPair): Promise<CompareSummary> {
  const counts = await sql<{ change: CompareChange; rows: string; changed: string }>`
    SELECT c.change, count(*)::text AS rows, count(*) FILTER (WHERE c.row_changed)::text AS changed
    FROM (${judgedRows(pair)}) c GROUP BY c.change`.execute(db);
  const means = await sql<{ name: string; a: number | null; b: number | null }>`
    SELECT name,
      avg(value_number) FILTER (WHERE experiment_id = ${pair.a.id}) AS a,
      avg(value_number) FILTER (WHERE experiment_id = ${pair.b.id}) AS b
    FROM experiment_scores
    WHERE experiment_id IN (${pair.a.id}, ${pair.b.id}) AND row_id <> ''
    GROUP BY name
    HAVING count(*) FILTER (WHERE experiment_id = ${pair.a.id}) > 0
      AND count(*) FILTER (WHERE experiment_id = ${pair.b.id}) > 0
    ORDER BY name`.execute(db);
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
