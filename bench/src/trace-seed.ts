import { type Database, refillTraceMetrics } from "@svc/db";
import { type Kysely, sql } from "kysely";

const DAY_MS = 86_400_000;

export interface TraceSeed {
  projectId: string;
  /** Makes the trace ids: md5 of the prefix and the trace's number. */
  prefix: string;
  traces: number;
  /** The traces start evenly over the `days` days before `endMs`. */
  endMs: number;
  days: number;
  /**
   * Whether the tables' indexes are dropped during the load and built again after it: for a large
   * load, where building an index once is far faster than growing it row by row.
   */
  rebuildIndexes: boolean;
}

/**
 * Creates `traces` traces of five spans each in one project directly in the database, as trace-ingest
 * would have stored them, and their trace metrics: an agent (with its conversation, session, user and
 * tags), a retrieval, two model calls (four models; one call in four by gpt-4o-mini) with tokens and
 * cost, and a tool call that fails in one trace of twenty. They start evenly over the days before
 * `endMs`, each jittered, ten traces a session, 5,000 users. Two connections load the traces and the
 * spans side by side; nothing measured goes through this.
 */
export async function seedTraces(
  [tracesSide, spansSide]: readonly [Kysely<Database>, Kysely<Database>],
  seed: TraceSeed,
): Promise<void> {
  await chooseTraces(tracesSide, seed);
  try {
    await Promise.all([
      (async () => {
        await withoutIndexes(tracesSide, "traces", seed.rebuildIndexes, () =>
          insertTraces(tracesSide, seed.projectId),
        );
        await refillTraceMetrics(tracesSide, seed.projectId);
        await sql`VACUUM ANALYZE traces`.execute(tracesSide);
        await sql`VACUUM ANALYZE trace_metrics`.execute(tracesSide);
      })(),
      (async () => {
        await withoutIndexes(spansSide, "spans", seed.rebuildIndexes, () =>
          insertSpans(spansSide, seed.projectId),
        );
        await sql`ANALYZE spans`.execute(spansSide);
      })(),
    ]);
  } finally {
    await sql`DROP TABLE IF EXISTS bench_trace_choices`.execute(tracesSide);
  }
}

/**
 * Each trace's choices, drawn once and read by both loads: its times, models, tokens, cost (at the
 * shipped default prices of its models), outcome, agent, tags and conversation.
 */
async function chooseTraces(db: Kysely<Database>, { prefix, traces, endMs, days }: TraceSeed): Promise<void> {
  const stepMs = (days * DAY_MS) / traces;
  const prices = sql`(VALUES ('gpt-4o', 250000000, 1000000000), ('gpt-4o-mini', 15000000, 60000000),
    ('claude-sonnet-4-20250514', 300000000, 1500000000), ('gemini-2.5-flash', 30000000, 250000000))`;
  await sql`DROP TABLE IF EXISTS bench_trace_choices`.execute(db);
  await sql`
    CREATE UNLOGGED TABLE bench_trace_choices AS
    WITH drawn AS (
      SELECT i, md5(${prefix} || i) AS trace_id,
             (${endMs - days * DAY_MS}::bigint + floor((i + random()) * ${stepMs}::float8)::bigint) * 1000000 AS start_ns,
             (ARRAY['gpt-4o', 'gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-20250514', 'gemini-2.5-flash'])[1 + floor(random() * 5)::int] AS model,
             random() < 0.25 AS second_mini,
             random() < 0.05 AS failed,
             (ARRAY['support-agent', 'support-agent', 'billing-agent', 'search-agent'])[1 + floor(random() * 4)::int] AS agent,
             400 + floor(random() * random() * 6000)::bigint AS chat1_ms,
             300 + floor(random() * random() * 4000)::bigint AS chat2_ms,
             20 + floor(random() * 200)::bigint AS tool_ms,
             300 + floor(random() * 3000)::int AS tokens1_in, 20 + floor(random() * 600)::int AS tokens1_out,
             300 + floor(random() * 3000)::int AS tokens2_in, 20 + floor(random() * 600)::int AS tokens2_out,
             (ARRAY['["beta"]', '["production"]', '["production"]', '["eu", "production"]'])[1 + floor(random() * 4)::int]::jsonb AS tags
      FROM generate_series(0, ${traces - 1}) AS i
    ), timed AS (
      SELECT d.*, CASE WHEN second_mini THEN 'gpt-4o-mini' ELSE model END AS model2,
             start_ns + 80000000 AS chat1_ns,
             start_ns + 80000000 + chat1_ms * 1000000 AS tool_ns,
             start_ns + 90000000 + (chat1_ms + tool_ms) * 1000000 AS chat2_ns,
             start_ns + 100000000 + (chat1_ms + tool_ms + chat2_ms) * 1000000 AS end_ns
      FROM drawn d
    )
    SELECT t.*, substr(md5(t.trace_id || '0'), 1, 16) AS root_id,
           'session-' || (t.i / 10) AS session_id, 'user-' || ((t.i / 10) * 7919 % 5000) AS user_id,
           round((t.tokens1_in::numeric * p1.input + t.tokens1_out::numeric * p1.output) / 1000000)::bigint AS cost1,
           round((t.tokens2_in::numeric * p2.input + t.tokens2_out::numeric * p2.output) / 1000000)::bigint AS cost2,
           jsonb_build_array(jsonb_build_object('role', 'user', 'content', 'Where is my refund for order ' || (100000 + t.i) || '?')) AS input,
           jsonb_build_array(jsonb_build_object('role', 'assistant', 'content', 'Refund ' || (100000 + t.i) || ' was sent on Monday.')) AS output
    FROM timed t
    JOIN ${prices} AS p1(model, input, output) ON p1.model = t.model
    JOIN ${prices} AS p2(model, input, output) ON p2.model = t.model2`.execute(db);
}

async function insertTraces(db: Kysely<Database>, projectId: string): Promise<void> {
  await sql`
    INSERT INTO traces (project_id, trace_id, span_count, error_count, start_ns, end_ns, duration_ns,
                        root_span_id, root_span_name, session_id, user_id, tags, models, tokens_input,
                        tokens_output, tokens_total, cost_total_microcents, input, output)
    SELECT ${projectId}, trace_id, 5, failed::int, start_ns, end_ns, end_ns - start_ns, root_id, agent,
           session_id, user_id, tags,
           CASE WHEN model = model2 THEN jsonb_build_array(model)
                ELSE jsonb_build_array(least(model, model2), greatest(model, model2)) END,
           tokens1_in + tokens2_in, tokens1_out + tokens2_out,
           tokens1_in + tokens2_in + tokens1_out + tokens2_out, cost1 + cost2, input, output
    FROM bench_trace_choices`.execute(db);
}

/** The five spans of each trace: 0 the agent, 1 the retrieval, 2 and 4 the model calls, 3 the tool. */
async function insertSpans(db: Kysely<Database>, projectId: string): Promise<void> {
  await sql`
    INSERT INTO spans (project_id, trace_id, span_id, parent_span_id, name, kind, start_ns, end_ns,
                       status_code, status_message, attributes, resource_attributes, scope, events, links,
                       session_id, user_id, tags, models, tokens_input, tokens_output, cost_microcents,
                       input, output)
    SELECT ${projectId}, c.trace_id, CASE WHEN k = 0 THEN c.root_id ELSE substr(md5(c.trace_id || k), 1, 16) END,
           CASE WHEN k > 0 THEN c.root_id END,
           CASE k WHEN 0 THEN c.agent WHEN 1 THEN 'retrieve documents' WHEN 2 THEN 'chat ' || c.model
                  WHEN 3 THEN 'execute_tool find_order' ELSE 'chat ' || c.model2 END,
           CASE k WHEN 0 THEN 2 WHEN 2 THEN 3 WHEN 4 THEN 3 ELSE 1 END,
           CASE k WHEN 0 THEN c.start_ns WHEN 1 THEN c.start_ns + 5000000 WHEN 2 THEN c.chat1_ns
                  WHEN 3 THEN c.tool_ns ELSE c.chat2_ns END,
           CASE k WHEN 0 THEN c.end_ns WHEN 1 THEN c.start_ns + 70000000 WHEN 2 THEN c.tool_ns
                  WHEN 3 THEN c.tool_ns + c.tool_ms * 1000000 ELSE c.end_ns - 5000000 END,
           CASE WHEN k = 3 AND c.failed THEN 2 ELSE 0 END,
           CASE WHEN k = 3 AND c.failed THEN 'order service timed out' END,
           CASE k
             WHEN 0 THEN jsonb_build_object('gen_ai.operation.name', 'invoke_agent', 'session.id', c.session_id,
                                            'user.id', c.user_id, 'svc.tags', c.tags)
             WHEN 1 THEN '{"db.system": "postgresql", "retrieval.documents": 8}'::jsonb
             WHEN 2 THEN jsonb_build_object('gen_ai.operation.name', 'chat', 'gen_ai.request.model', c.model,
                                            'gen_ai.usage.input_tokens', c.tokens1_in, 'gen_ai.usage.output_tokens', c.tokens1_out)
             WHEN 3 THEN '{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "find_order"}'::jsonb
             ELSE jsonb_build_object('gen_ai.operation.name', 'chat', 'gen_ai.request.model', c.model2,
                                     'gen_ai.usage.input_tokens', c.tokens2_in, 'gen_ai.usage.output_tokens', c.tokens2_out)
           END,
           '{"service.name": "support-bot", "deployment.environment": "prod"}'::jsonb,
           '{"name": "support-bot.agent", "version": "1.4.0"}'::jsonb, '[]'::jsonb, '[]'::jsonb,
           CASE WHEN k = 0 THEN c.session_id END, CASE WHEN k = 0 THEN c.user_id END,
           CASE WHEN k = 0 THEN c.tags ELSE '[]'::jsonb END,
           CASE k WHEN 2 THEN jsonb_build_array(c.model) WHEN 4 THEN jsonb_build_array(c.model2) ELSE '[]'::jsonb END,
           CASE k WHEN 2 THEN c.tokens1_in WHEN 4 THEN c.tokens2_in ELSE 0 END,
           CASE k WHEN 2 THEN c.tokens1_out WHEN 4 THEN c.tokens2_out ELSE 0 END,
           CASE k WHEN 2 THEN c.cost1 WHEN 4 THEN c.cost2 END,
           CASE WHEN k = 0 THEN c.input ELSE 'null'::jsonb END,
           CASE WHEN k = 0 THEN c.output ELSE 'null'::jsonb END
    FROM bench_trace_choices c CROSS JOIN generate_series(0, 4) AS k`.execute(db);
}

/**
 * Runs `load` with the indexes of `table` dropped (its primary key included) when `rebuild` is set,
 * and builds them again after it, as they were.
 */
async function withoutIndexes(
  db: Kysely<Database>,
  table: "traces" | "spans",
  rebuild: boolean,
  load: () => Promise<void>,
): Promise<void> {
  if (!rebuild) return load();
  const { rows: keys } = await sql<{ name: string; definition: string }>`
    SELECT conname AS name, pg_get_constraintdef(oid) AS definition
    FROM pg_constraint WHERE contype = 'p' AND conrelid = ${table}::regclass`.execute(db);
  const { rows: indexes } = await sql<{ name: string; definition: string }>`
    SELECT indexname AS name, indexdef AS definition FROM pg_indexes
    WHERE schemaname = current_schema() AND tablename = ${table}
      AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE contype = 'p')`.execute(db);
  for (const index of indexes) await sql`DROP INDEX ${sql.id(index.name)}`.execute(db);
  for (const key of keys)
    await sql`ALTER TABLE ${sql.table(table)} DROP CONSTRAINT ${sql.id(key.name)}`.execute(db);
  try {
    await load();
  } finally {
    for (const key of keys) {
      await sql`ALTER TABLE ${sql.table(table)} ADD CONSTRAINT ${sql.id(key.name)} ${sql.raw(key.definition)}`.execute(
        db,
      );
    }
    for (const index of indexes) await sql.raw(index.definition).execute(db);
  }
}
