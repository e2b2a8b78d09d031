import type { Actor, Cell, ScoreSource, ScoreValue } from "@svc/contracts";
import {
  actorNameOf,
  actorOf,
  type Database,
  type RowCells,
  revisionsAt,
  unnestRows,
  validAt,
} from "@svc/db";
import { type Kysely, sql, type Transaction } from "kysely";
import { scoreValueOf, storedScoreValue } from "./experiments";

type Db = Kysely<Database> | Transaction<Database>;

/** Where an experiment's rows come from: its dataset at its pinned version. */
export interface PinnedVersion {
  experimentId: string;
  datasetId: string;
  version: number;
}

/** A row of the pinned version as a result needs it: its revision and its expected output. */
export interface PinnedRow {
  rowVersion: number;
  expectedOutput: Cell;
}

export interface PendingRow {
  rowId: string;
  version: number;
  createdAt: Date;
  cells: RowCells;
}

export interface ResultToStore {
  rowId: string;
  rowVersion: number;
  output: Cell;
  traceId: string | null;
  latencyMs: number | null;
  tokens: number | null;
  costMicrocents: number | null;
  error: string | null;
}

export interface ScoreToStore {
  rowId: string;
  name: string;
  value: ScoreValue;
  source: ScoreSource;
  comment: string | null;
  actor: Actor;
}

export interface StoredScore {
  value: ScoreValue;
  source: ScoreSource;
  comment: string | null;
  actor: Actor;
}

export interface ResultRecord {
  rowId: string;
  rowVersion: number;
  input: Cell | undefined;
  expectedOutput: Cell | undefined;
  output: Cell;
  traceId: string | null;
  latencyMs: number | null;
  tokens: number | null;
  costMicrocents: number | null;
  error: string | null;
  carriedFrom: string | null;
  createdAt: Date;
}

/** The rows among `rowIds` that the pinned version holds; the others are missing from the map. */
export async function listPinnedRows(
  db: Db,
  pinned: Omit<PinnedVersion, "experimentId">,
  rowIds: readonly string[],
): Promise<Map<string, PinnedRow>> {
  if (rowIds.length === 0) return new Map();
  const rows = await revisionsAt(db as Kysely<Database>, pinned.datasetId, pinned.version)
    .select(["r.row_id", "r.version_from", "r.expected_output"])
    .where("r.row_id", "in", rowIds)
    .execute();
  return new Map(
    rows.map((row) => [
      row.row_id,
      { rowVersion: row.version_from, expectedOutput: row.expected_output as Cell },
    ]),
  );
}

/**
 * A page of the pinned version's rows that have no result yet, in row id order: a merge of the
 * version's rows with the experiment's results, both read in row id order, that stops at the page's
 * end. The merge is the planner's only choice here: a running experiment's results are newer than the
 * table's statistics, which then count them as one row and would pick a nested loop over all of them
 * for each row of the dataset.
 */
export async function listPendingRows(
  db: Kysely<Database>,
  pinned: PinnedVersion,
  page: { afterRowId: string | undefined; limit: number },
): Promise<PendingRow[]> {
  const rows = await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL enable_nestloop = off`.execute(trx);
    await sql`SET LOCAL enable_hashjoin = off`.execute(trx);
    let query = revisionsAt(trx, pinned.datasetId, pinned.version)
      .select([
        "r.row_id",
        "r.version_from",
        "r.created_at",
        "r.input",
        "r.output",
        "r.expected_output",
        "r.metadata",
        "r.custom",
      ])
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("experiment_results as x")
              .select(sql`1`.as("one"))
              .where("x.experiment_id", "=", pinned.experimentId)
              .whereRef("x.row_id", "=", "r.row_id"),
          ),
        ),
      );
    if (page.afterRowId !== undefined) query = query.where("r.row_id", ">", page.afterRowId);
    return query.orderBy("r.row_id").limit(page.limit).execute();
  });
  return rows.map((row) => ({
    rowId: row.row_id,
    version: row.version_from,
    createdAt: new Date(row.created_at),
    cells: {
      input: row.input as Cell,
      output: row.output as Cell,
      expectedOutput: row.expected_output as Cell,
      metadata: row.metadata as Cell,
      custom: row.custom as Record<string, Cell>,
    },
  }));
}

/** Writes results, each replacing the row's earlier one (which is no longer carried, if it was). */
export async function upsertResults(
  trx: Transaction<Database>,
  experimentId: string,
  results: readonly ResultToStore[],
): Promise<void> {
  if (results.length === 0) return;
  await sql`
    INSERT INTO experiment_results AS t
      (experiment_id, row_id, row_version, output, trace_id, latency_ms, tokens, cost_microcents, error, carried_from, created_at)
    SELECT ${experimentId}, s."rowId", s."rowVersion", s.output, s."traceId", s."latencyMs", s.tokens,
      s."costMicrocents", s.error, NULL, now()
    FROM ${unnestRows(
      "s",
      {
        rowId: "text",
        rowVersion: "int",
        output: "jsonb",
        traceId: "text",
        latencyMs: "float8",
        tokens: "int",
        costMicrocents: "bigint",
        error: "text",
      },
      results,
    )}
    ON CONFLICT (experiment_id, row_id) DO UPDATE SET
      row_version = excluded.row_version, output = excluded.output, trace_id = excluded.trace_id,
      latency_ms = excluded.latency_ms, tokens = excluded.tokens, cost_microcents = excluded.cost_microcents,
      error = excluded.error, carried_from = NULL, created_at = excluded.created_at`.execute(trx);
}

/** Forgets every score of these rows' results: a new result is judged afresh. */
export async function deleteRowScores(
  trx: Transaction<Database>,
  experimentId: string,
  rowIds: readonly string[],
): Promise<void> {
  if (rowIds.length === 0) return;
  await trx
    .deleteFrom("experiment_scores")
    .where("experiment_id", "=", experimentId)
    .where("row_id", "in", rowIds)
    .execute();
}

/** Writes scores, each replacing the score of its name on the same result (or experiment: row id ''). */
export async function upsertScores(
  trx: Transaction<Database>,
  experimentId: string,
  scores: readonly ScoreToStore[],
): Promise<void> {
  if (scores.length === 0) return;
  const rows = scores.map((score) => ({
    rowId: score.rowId,
    name: score.name,
    ...renamed(storedScoreValue(score.value)),
    source: score.source,
    comment: score.comment,
    actorKind: score.actor.kind,
    actorId: score.actor.id,
  }));
  await sql`
    INSERT INTO experiment_scores AS t
      (experiment_id, row_id, name, value_kind, value_number, value_text, source, comment, actor_kind, actor_id, created_at)
    SELECT ${experimentId}, s."rowId", s.name, s."valueKind", s."valueNumber", s."valueText", s.source, s.comment,
      s."actorKind", s."actorId", now()
    FROM ${unnestRows(
      "s",
      {
        rowId: "text",
        name: "text",
        valueKind: "text",
        valueNumber: "float8",
        valueText: "text",
        source: "text",
        comment: "text",
        actorKind: "text",
        actorId: "text",
      },
      rows,
    )}
    ON CONFLICT (experiment_id, row_id, name) DO UPDATE SET
      value_kind = excluded.value_kind, value_number = excluded.value_number, value_text = excluded.value_text,
      source = excluded.source, comment = excluded.comment, actor_kind = excluded.actor_kind,
      actor_id = excluded.actor_id, created_at = excluded.created_at`.execute(trx);
}

function renamed(value: ReturnType<typeof storedScoreValue>) {
  return { valueKind: value.value_kind, valueNumber: value.value_number, valueText: value.value_text };
}

/** The rows among `rowIds` that have a result. */
export async function listRowsWithResults(
  db: Db,
  experimentId: string,
  rowIds: readonly string[],
): Promise<Set<string>> {
  if (rowIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("experiment_results")
    .select("row_id")
    .where("experiment_id", "=", experimentId)
    .where("row_id", "in", rowIds)
    .execute();
  return new Set(rows.map((row) => row.row_id));
}

/**
 * Copies the base experiment's result of every row whose revision at the pinned version is the one
 * the base ran on, marked as carried from it. Returns how many were carried.
 */
export async function carryResults(
  trx: Transaction<Database>,
  pinned: PinnedVersion,
  baseExperimentId: string,
): Promise<number> {
  const result = await sql`
    INSERT INTO experiment_results
      (experiment_id, row_id, row_version, output, trace_id, latency_ms, tokens, cost_microcents, error, carried_from, created_at)
    SELECT ${pinned.experimentId}, b.row_id, b.row_version, b.output, b.trace_id, b.latency_ms, b.tokens,
      b.cost_microcents, b.error, coalesce(b.carried_from, b.experiment_id), b.created_at
    FROM experiment_results b
    JOIN row_revisions r ON r.dataset_id = ${pinned.datasetId} AND r.row_id = b.row_id AND r.version_from = b.row_version
    WHERE b.experiment_id = ${baseExperimentId} AND ${validAt("r", pinned.version)}`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Copies the base's scores of the carried results, but for rule scores whose evaluator this
 * experiment does not declare the same way (`keptRuleNames`): those are the base's rules, not its own.
 * The carried results were written in this transaction, so the table's statistics do not know them:
 * the join is told to hash them rather than loop over all of them for each score.
 */
export async function carryScores(
  trx: Transaction<Database>,
  experimentId: string,
  baseExperimentId: string,
  keptRuleNames: readonly string[],
): Promise<void> {
  await sql`SET LOCAL enable_nestloop = off`.execute(trx);
  await sql`
    INSERT INTO experiment_scores
      (experiment_id, row_id, name, value_kind, value_number, value_text, source, comment, actor_kind, actor_id, created_at)
    SELECT ${experimentId}, s.row_id, s.name, s.value_kind, s.value_number, s.value_text, s.source, s.comment,
      s.actor_kind, s.actor_id, s.created_at
    FROM experiment_scores s
    JOIN experiment_results c ON c.experiment_id = ${experimentId} AND c.row_id = s.row_id
    WHERE s.experiment_id = ${baseExperimentId}
      AND (s.source <> 'rule' OR s.name = ANY(${[...keptRuleNames]}::text[]))`.execute(trx);
  await sql`RESET enable_nestloop`.execute(trx);
}

/** A page of results (after a row id), for evaluating them again: outputs with the rows' expected outputs. */
export async function listResultsToScore(
  db: Db,
  pinned: PinnedVersion,
  page: { afterRowId: string | undefined; limit: number },
): Promise<{ rowId: string; output: Cell; error: string | null; expectedOutput: Cell }[]> {
  let query = db
    .selectFrom("experiment_results as x")
    .innerJoin("row_revisions as r", (join) =>
      join
        .on("r.dataset_id", "=", pinned.datasetId)
        .onRef("r.row_id", "=", "x.row_id")
        .onRef("r.version_from", "=", "x.row_version"),
    )
    .select(["x.row_id", "x.output", "x.error", "r.expected_output"])
    .where("x.experiment_id", "=", pinned.experimentId);
  if (page.afterRowId !== undefined) query = query.where("x.row_id", ">", page.afterRowId);
  const rows = await query.orderBy("x.row_id").limit(page.limit).execute();
  return rows.map((row) => ({
    rowId: row.row_id,
    output: row.output as Cell,
    error: row.error,
    expectedOutput: row.expected_output as Cell,
  }));
}

export interface ResultFilter {
  errored?: boolean | undefined;
  below?: { score: string; value: number } | undefined;
}

/** A page of results in row id order, with the rows' input and expected output at the pinned version. */
export async function listResults(
  db: Db,
  pinned: PinnedVersion,
  page: { afterRowId: string | undefined; limit: number; filter: ResultFilter },
): Promise<ResultRecord[]> {
  let query = selectResults(db, pinned.datasetId).where("x.experiment_id", "=", pinned.experimentId);
  if (page.afterRowId !== undefined) query = query.where("x.row_id", ">", page.afterRowId);
  const { errored, below } = page.filter;
  if (errored !== undefined) query = query.where("x.error", errored ? "is not" : "is", null);
  if (below !== undefined) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom("experiment_scores as s")
          .select(sql`1`.as("one"))
          .where("s.experiment_id", "=", pinned.experimentId)
          .whereRef("s.row_id", "=", "x.row_id")
          .where("s.name", "=", below.score)
          .where("s.value_number", "<", below.value),
      ),
    );
  }
  const rows = await query.orderBy("x.row_id").limit(page.limit).execute();
  return rows.map(toResultRecord);
}

/** The results of these rows (those that have one). */
export async function listResultsOfRows(
  db: Db,
  pinned: PinnedVersion,
  rowIds: readonly string[],
): Promise<Map<string, ResultRecord>> {
  if (rowIds.length === 0) return new Map();
  const rows = await selectResults(db, pinned.datasetId)
    .where("x.experiment_id", "=", pinned.experimentId)
    .where("x.row_id", "in", rowIds)
    .execute();
  return new Map(rows.map((row) => [row.row_id, toResultRecord(row)]));
}

function selectResults(db: Db, datasetId: string) {
  return db
    .selectFrom("experiment_results as x")
    .leftJoin("row_revisions as r", (join) =>
      join
        .on("r.dataset_id", "=", datasetId)
        .onRef("r.row_id", "=", "x.row_id")
        .onRef("r.version_from", "=", "x.row_version"),
    )
    .select([
      "x.row_id",
      "x.row_version",
      "x.output",
      "x.trace_id",
      "x.latency_ms",
      "x.tokens",
      sql<string | null>`x.cost_microcents::text`.as("cost_microcents"),
      "x.error",
      "x.carried_from",
      "x.created_at",
      "r.input",
      "r.expected_output",
    ]);
}

type StoredResult = {
  row_id: string;
  row_version: number;
  output: unknown;
  trace_id: string | null;
  latency_ms: number | null;
  tokens: number | null;
  cost_microcents: string | null;
  error: string | null;
  carried_from: string | null;
  created_at: Date;
  input: unknown;
  expected_output: unknown;
};

function toResultRecord(row: StoredResult): ResultRecord {
  return {
    rowId: row.row_id,
    rowVersion: row.row_version,
    input: row.input as Cell | undefined,
    expectedOutput: row.expected_output as Cell | undefined,
    output: row.output as Cell,
    traceId: row.trace_id,
    latencyMs: row.latency_ms === null ? null : Number(row.latency_ms),
    tokens: row.tokens,
    costMicrocents: row.cost_microcents === null ? null : Number(row.cost_microcents),
    error: row.error,
    carriedFrom: row.carried_from,
    createdAt: new Date(row.created_at),
  };
}

/** The scores of these rows' results, by row id, then by name. */
export async function listScoresOfRows(
  db: Db,
  experimentId: string,
  rowIds: readonly string[],
): Promise<Map<string, Record<string, StoredScore>>> {
  const byRow = new Map<string, Record<string, StoredScore>>();
  if (rowIds.length === 0) return byRow;
  const rows = await db
    .selectFrom("experiment_scores")
    .select([
      "row_id",
      "name",
      "value_kind",
      "value_number",
      "value_text",
      "source",
      "comment",
      "actor_kind",
      "actor_id",
      actorNameOf("actor_kind", "actor_id").as("actor_name"),
    ])
    .where("experiment_id", "=", experimentId)
    .where("row_id", "in", rowIds)
    .orderBy("name")
    .execute();
  for (const row of rows) {
    const scores = byRow.get(row.row_id) ?? Object.create(null);
    scores[row.name] = {
      value: scoreValueOf(row),
      source: row.source as ScoreSource,
      comment: row.comment,
      actor: actorOf(row.actor_kind, row.actor_id, row.actor_name),
    };
    byRow.set(row.row_id, scores);
  }
  return byRow;
}
