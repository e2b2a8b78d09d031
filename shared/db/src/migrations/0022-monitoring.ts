import { type Kysely, sql } from "kysely";

/**
 * Monitoring (docs/decisions/0040-trace-metrics.md, 0041-model-prices.md):
 *
 * - `trace_metrics`: per project, minute and hour, and group (all traces, each model, root span name,
 *   tag), how many traces started, how many had an error, their tokens and cost, and a histogram of
 *   their durations. The ingest keeps it as a trace's summary changes; a month of metrics reads some
 *   thousands of these rows instead of a million traces. The backfill fills it from the traces stored
 *   so far with the same rules as the ingest (`shared/db/src/trace-metrics.ts`).
 * - A trigram index of each trace's input and output, for the traces list's free-text filter.
 * - `model_prices`: an organisation's prices per model, from a day on. A span's cost may now be
 *   unknown (null): no cost from the exporter and no price for its model.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE spans ALTER COLUMN cost_microcents DROP NOT NULL`.execute(db);

  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`
    CREATE INDEX traces_by_text ON traces
    USING gin ((coalesce(input::text, '') || ' ' || coalesce(output::text, '')) gin_trgm_ops)
  `.execute(db);

  await db.schema
    .createTable("trace_metrics")
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("width", "text", (c) => c.notNull().check(sql`width IN ('minute', 'hour')`))
    .addColumn("grouping", "text", (c) =>
      c.notNull().check(sql`grouping IN ('all', 'model', 'rootSpanName', 'tag')`),
    )
    .addColumn("bucket_start", "timestamptz", (c) => c.notNull())
    // '' for traces without a value (and for every row of grouping 'all').
    .addColumn("group_value", "text", (c) => c.notNull())
    .addColumn("traces", "bigint", (c) => c.notNull())
    .addColumn("errors", "bigint", (c) => c.notNull())
    .addColumn("tokens_input", "bigint", (c) => c.notNull())
    .addColumn("tokens_output", "bigint", (c) => c.notNull())
    .addColumn("cost_microcents", "bigint", (c) => c.notNull())
    // {"<bucket index>": traces}: see latencyBucketOf.
    .addColumn("latency", "jsonb", (c) => c.notNull())
    .addPrimaryKeyConstraint("trace_metrics_pk", [
      "project_id",
      "width",
      "grouping",
      "bucket_start",
      "group_value",
    ])
    .execute();
  await sql`
    WITH summaries AS (
      SELECT project_id, start_ns, (error_count > 0)::int AS failed, tokens_input, tokens_output,
             cost_total_microcents AS cost,
             floor(8 * log(2, greatest(duration_ns / 1000.0, 1)))::int AS latency_bucket,
             coalesce(root_span_name, '') AS root_span_name,
             CASE WHEN jsonb_array_length(models) = 0 THEN '[""]'::jsonb ELSE models END AS models,
             CASE WHEN jsonb_array_length(tags) = 0 THEN '[""]'::jsonb ELSE tags END AS tags
      FROM traces WHERE span_count > 0
    ), keyed AS (
      SELECT s.*, w.width, g.grouping, g.group_value,
             to_timestamp((s.start_ns / w.bucket_ns) * (w.bucket_ns / 1000000000)) AS bucket_start
      FROM summaries s
      CROSS JOIN (VALUES ('minute', 60000000000::bigint), ('hour', 3600000000000::bigint)) AS w(width, bucket_ns)
      CROSS JOIN LATERAL (
        SELECT 'all', ''
        UNION ALL SELECT 'rootSpanName', s.root_span_name
        UNION ALL SELECT 'model', m FROM (SELECT DISTINCT m FROM jsonb_array_elements_text(s.models) AS m) AS ms
        UNION ALL SELECT 'tag', x FROM (SELECT DISTINCT x FROM jsonb_array_elements_text(s.tags) AS x) AS xs
      ) AS g(grouping, group_value)
    ), by_latency AS (
      SELECT project_id, width, grouping, bucket_start, group_value, latency_bucket,
             count(*) AS traces, sum(failed) AS errors, sum(tokens_input) AS tokens_input,
             sum(tokens_output) AS tokens_output, sum(cost) AS cost
      FROM keyed
      GROUP BY project_id, width, grouping, bucket_start, group_value, latency_bucket
    )
    INSERT INTO trace_metrics
    SELECT project_id, width, grouping, bucket_start, group_value, sum(traces), sum(errors),
           sum(tokens_input), sum(tokens_output), sum(cost),
           jsonb_object_agg(latency_bucket::text, traces)
    FROM by_latency
    GROUP BY project_id, width, grouping, bucket_start, group_value
  `.execute(db);

  await db.schema
    .createTable("model_prices")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("effective_from", "date", (c) => c.notNull())
    // Millionths of a US cent per million tokens: any price with at most 8 decimals in dollars, exactly.
    .addColumn("input_microcents_per_million", "bigint", (c) => c.notNull())
    .addColumn("output_microcents_per_million", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("model_prices_unique", ["organization_id", "model", "effective_from"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("model_prices").ifExists().execute();
  await db.schema.dropTable("trace_metrics").ifExists().execute();
  await sql`DROP INDEX IF EXISTS traces_by_text`.execute(db);
}
