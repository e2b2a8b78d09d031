import { type Kysely, sql } from "kysely";
import type { Database } from "./schema";

/*
 * The histogram of trace durations that `trace_metrics.latency` keeps (migration 0022): the ingest
 * counts each trace in a bucket, the reader reads percentiles off the buckets. One module, so that
 * both read the buckets the same way (decision 0040).
 */

/** Buckets per doubling: each bucket spans 2^(1/8), about 9%, of durations. */
const BUCKETS_PER_DOUBLING = 8;

/**
 * The bucket of a duration: floor(8 · log2(microseconds)), durations under a microsecond in bucket 0.
 * The migration's backfill computes the same in SQL.
 */
export function latencyBucketOf(durationNs: string | bigint): number {
  const micros = Math.max(Number(BigInt(durationNs)) / 1000, 1);
  return Math.floor(BUCKETS_PER_DOUBLING * Math.log2(micros));
}

/**
 * The duration a bucket stands for, in milliseconds: the geometric middle of its bounds, within
 * 2^(1/16) - 1 (4.4%) of any duration in it.
 */
export function latencyOfBucket(bucket: number): number {
  return 2 ** ((bucket + 0.5) / BUCKETS_PER_DOUBLING) / 1000;
}

/** Counts per bucket, as `trace_metrics.latency` holds them. */
export type LatencyHistogram = Record<string, number>;

/**
 * The duration below which `quantile` of the counted traces fall, in milliseconds (rounded to the
 * microsecond); 0 for an empty histogram.
 */
export function latencyQuantile(histogram: ReadonlyMap<number, number>, quantile: number): number {
  let total = 0;
  for (const count of histogram.values()) total += count;
  if (total <= 0) return 0;
  const rank = Math.max(1, Math.ceil(quantile * total));
  let seen = 0;
  for (const bucket of [...histogram.keys()].sort((a, b) => a - b)) {
    seen += histogram.get(bucket) ?? 0;
    if (seen >= rank) return Math.round(latencyOfBucket(bucket) * 1000) / 1000;
  }
  return 0;
}

/**
 * Rebuilds the metrics of one project from its stored trace summaries, with the rules the ingest
 * keeps them by (and migration 0022's backfill, which is this statement for every project): for
 * traces written by other means than the ingest, such as a bulk load.
 */
export async function refillTraceMetrics(db: Kysely<Database>, projectId: string): Promise<void> {
  await db.deleteFrom("trace_metrics").where("project_id", "=", projectId).execute();
  // Each trace's summary is computed once (MATERIALIZED) before it is counted in its two widths and
  // its groups: inlined, the latency bucket's logarithm (numeric, about 17 µs) was computed again for
  // each of the ten or so rows a trace makes, most of the time of a refill.
  await sql`
    WITH summaries AS MATERIALIZED (
      SELECT project_id, start_ns, (error_count > 0)::int AS failed, tokens_input, tokens_output,
             cost_total_microcents AS cost,
             floor(8 * log(2, greatest(duration_ns / 1000.0, 1)))::int AS latency_bucket,
             coalesce(root_span_name, '') AS root_span_name,
             CASE WHEN jsonb_array_length(models) = 0 THEN '[""]'::jsonb ELSE models END AS models,
             CASE WHEN jsonb_array_length(tags) = 0 THEN '[""]'::jsonb ELSE tags END AS tags
      FROM traces WHERE project_id = ${projectId} AND span_count > 0
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
}
