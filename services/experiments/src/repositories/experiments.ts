import {
  type Actor,
  DomainError,
  type Evaluator,
  type ScoreValue,
  type scoreSummarySchema,
} from "@svc/contracts";
import type { Database } from "@svc/db";
import { actorNameOf, actorOf, exactTimestamp, jsonb } from "@svc/db";
import { type Kysely, sql, type Transaction } from "kysely";
import type { z } from "zod";

/** An experiment as stored, without its counts. */
export interface ExperimentRecord {
  id: string;
  organizationId: string;
  datasetId: string;
  name: string;
  version: number;
  baseExperimentId: string | null;
  metadata: unknown;
  status: "running" | "finished";
  evaluators: Evaluator[];
  rowCount: number;
  actor: Actor;
  createdAt: Date;
  finishedAt: Date | null;
}

/** What an experiment's results add up to. */
export interface ExperimentTotals {
  results: number;
  errors: number;
  carried: number;
  scores: Record<string, z.infer<typeof scoreSummarySchema>>;
}

export const experimentNotFound = (id: string): DomainError =>
  new DomainError("not_found", `Experiment "${id}" not found`);

const experimentColumns = [
  "e.id",
  "e.organization_id",
  "e.dataset_id",
  "e.name",
  "e.version",
  "e.base_experiment_id",
  "e.metadata",
  "e.status",
  "e.evaluators",
  "e.row_count",
  "e.actor_kind",
  "e.actor_id",
  "e.created_at",
  "e.finished_at",
  actorNameOf("e.actor_kind", "e.actor_id").as("actor_name"),
] as const;

type StoredExperiment = {
  id: string;
  organization_id: string;
  dataset_id: string;
  name: string;
  version: number;
  base_experiment_id: string | null;
  metadata: unknown;
  status: string;
  evaluators: unknown;
  row_count: number;
  actor_kind: string;
  actor_id: string;
  actor_name: string | null;
  created_at: Date;
  finished_at: Date | null;
};

function toRecord(row: StoredExperiment): ExperimentRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    datasetId: row.dataset_id,
    name: row.name,
    version: row.version,
    baseExperimentId: row.base_experiment_id,
    metadata: row.metadata,
    status: row.status === "finished" ? "finished" : "running",
    evaluators: row.evaluators as Evaluator[],
    rowCount: row.row_count,
    actor: actorOf(row.actor_kind, row.actor_id, row.actor_name),
    createdAt: new Date(row.created_at),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at),
  };
}

export async function insertExperiment(
  db: Kysely<Database>,
  experiment: Omit<ExperimentRecord, "createdAt" | "finishedAt" | "status">,
): Promise<ExperimentRecord> {
  const row = await db
    .insertInto("experiments")
    .values({
      id: experiment.id,
      organization_id: experiment.organizationId,
      dataset_id: experiment.datasetId,
      name: experiment.name,
      version: experiment.version,
      base_experiment_id: experiment.baseExperimentId,
      metadata: jsonb(experiment.metadata),
      status: "running",
      evaluators: jsonb(experiment.evaluators),
      row_count: experiment.rowCount,
      actor_kind: experiment.actor.kind,
      actor_id: experiment.actor.id,
    })
    .returningAll()
    .returning(actorNameOf("actor_kind", "actor_id").as("actor_name"))
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

/** An experiment of a project of the organisation; another organisation's or project's is not found. */
export async function findOptionalExperiment(
  db: Kysely<Database>,
  ref: { organizationId: string; projectSlug: string; experimentId: string },
  options: { lock?: "share" | "update" } = {},
): Promise<ExperimentRecord | undefined> {
  const query = db
    .selectFrom("experiments as e")
    .innerJoin("datasets as d", "d.id", "e.dataset_id")
    .innerJoin("projects as p", "p.id", "d.project_id")
    .select(experimentColumns)
    .where("e.id", "=", ref.experimentId)
    .where("e.organization_id", "=", ref.organizationId)
    .where("p.organization_id", "=", ref.organizationId)
    .where("p.slug", "=", ref.projectSlug);
  const locked =
    options.lock === "update" ? query.forUpdate("e") : options.lock === "share" ? query.forShare("e") : query;
  const row = await locked.executeTakeFirst();
  return row && toRecord(row);
}

/** An experiment of the organisation by id alone (a base named in a body), in whatever project. */
export async function findOptionalExperimentById(
  db: Kysely<Database>,
  organizationId: string,
  experimentId: string,
): Promise<ExperimentRecord | undefined> {
  const row = await db
    .selectFrom("experiments as e")
    .select(experimentColumns)
    .where("e.id", "=", experimentId)
    .where("e.organization_id", "=", organizationId)
    .executeTakeFirst();
  return row && toRecord(row);
}

export async function findExperiment(
  db: Kysely<Database>,
  ref: { organizationId: string; projectSlug: string; experimentId: string },
  options: { lock?: "share" | "update" } = {},
): Promise<ExperimentRecord> {
  const experiment = await findOptionalExperiment(db, ref, options);
  if (!experiment) throw experimentNotFound(ref.experimentId);
  return experiment;
}

/** A page of a dataset's experiments, newest first, after the cursor's (created_at, id). */
export async function listExperiments(
  db: Kysely<Database>,
  query: { datasetId: string; after: { createdAt: string; id: string } | undefined; limit: number },
): Promise<(ExperimentRecord & { key: string })[]> {
  let select = db
    .selectFrom("experiments as e")
    .select([...experimentColumns, exactTimestamp("e.created_at").as("key")])
    .where("e.dataset_id", "=", query.datasetId);
  if (query.after) {
    const { createdAt, id } = query.after;
    select = select.where(sql<boolean>`(e.created_at, e.id) < (${createdAt}::timestamptz, ${id})`);
  }
  const rows = await select
    .orderBy("e.created_at", "desc")
    .orderBy("e.id", "desc")
    .limit(query.limit)
    .execute();
  return rows.map((row) => ({ ...toRecord(row), key: row.key }));
}

export async function updateExperiment(
  db: Kysely<Database>,
  id: string,
  changes: { name?: string; metadata?: unknown; finish?: boolean },
): Promise<ExperimentRecord> {
  const row = await db
    .updateTable("experiments as e")
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.metadata !== undefined ? { metadata: jsonb(changes.metadata) } : {}),
      ...(changes.finish
        ? { status: "finished", finished_at: sql<Date>`coalesce(e.finished_at, now())` }
        : {}),
    })
    .where("e.id", "=", id)
    .returningAll()
    .returning(actorNameOf("e.actor_kind", "e.actor_id").as("actor_name"))
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function deleteExperiment(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom("experiments").where("id", "=", id).execute();
}

/** The counts and score summaries of several experiments, in two statements whatever their number. */
export async function listExperimentTotals(
  db: Kysely<Database> | Transaction<Database>,
  experimentIds: readonly string[],
): Promise<Map<string, ExperimentTotals>> {
  const totals = new Map<string, ExperimentTotals>(
    experimentIds.map((id) => [id, { results: 0, errors: 0, carried: 0, scores: {} }]),
  );
  if (experimentIds.length === 0) return totals;
  const counts = await db
    .selectFrom("experiment_results")
    .select([
      "experiment_id",
      sql<string>`count(*)::text`.as("results"),
      sql<string>`count(error)::text`.as("errors"),
      sql<string>`count(carried_from)::text`.as("carried"),
    ])
    .where("experiment_id", "in", experimentIds)
    .groupBy("experiment_id")
    .execute();
  for (const row of counts) {
    const total = totals.get(row.experiment_id);
    if (!total) continue;
    total.results = Number(row.results);
    total.errors = Number(row.errors);
    total.carried = Number(row.carried);
  }
  const scores = await db
    .selectFrom("experiment_scores")
    .select([
      "experiment_id",
      "name",
      sql<string>`count(*)::text`.as("count"),
      sql<number | null>`avg(value_number)`.as("mean"),
      sql<number | null>`min(value_number)`.as("min"),
      sql<number | null>`max(value_number)`.as("max"),
    ])
    .where("experiment_id", "in", experimentIds)
    .groupBy(["experiment_id", "name"])
    .orderBy("name")
    .execute();
  for (const row of scores) {
    const total = totals.get(row.experiment_id);
    if (!total) continue;
    total.scores[row.name] = {
      count: Number(row.count),
      mean: row.mean === null ? null : Number(row.mean),
      min: row.min === null ? null : Number(row.min),
      max: row.max === null ? null : Number(row.max),
    };
  }
  return totals;
}

/** A score as stored: booleans as 1 or 0 beside their kind, categories as text. */
export function storedScoreValue(value: ScoreValue): {
  value_kind: "number" | "boolean" | "category";
  value_number: number | null;
  value_text: string | null;
} {
  if (typeof value === "boolean")
    return { value_kind: "boolean", value_number: value ? 1 : 0, value_text: null };
  if (typeof value === "number") return { value_kind: "number", value_number: value, value_text: null };
  return { value_kind: "category", value_number: null, value_text: value };
}

export function scoreValueOf(row: {
  value_kind: string;
  value_number: number | null;
  value_text: string | null;
}): ScoreValue {
  if (row.value_kind === "boolean") return row.value_number === 1;
  if (row.value_kind === "number") return Number(row.value_number);
  return row.value_text ?? "";
}
