import { type CreateTableBuilder, type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per span ever received, replaced when the same span arrives again. Besides the span as
  // OTLP described it, each row keeps the facts a trace summary needs (tokens, cost, models…), read from
  // its attributes once at ingestion, so that summarising a trace never re-reads every attribute.
  await db.schema
    .createTable("spans")
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("trace_id", "text", (c) => c.notNull())
    .addColumn("span_id", "text", (c) => c.notNull())
    .addColumn("parent_span_id", "text")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("kind", "integer", (c) => c.notNull())
    .addColumn("start_ns", "bigint", (c) => c.notNull())
    .addColumn("end_ns", "bigint", (c) => c.notNull())
    .addColumn("status_code", "integer", (c) => c.notNull())
    .addColumn("status_message", "text")
    .addColumn("attributes", "jsonb", (c) => c.notNull())
    .addColumn("resource_attributes", "jsonb", (c) => c.notNull())
    .addColumn("scope", "jsonb")
    .addColumn("events", "jsonb", (c) => c.notNull())
    .addColumn("links", "jsonb", (c) => c.notNull())
    .$call(addTraceFacts)
    .addColumn("cost_microcents", "bigint", (c) => c.notNull())
    .addColumn("input", "jsonb")
    .addColumn("output", "jsonb")
    .addColumn("received_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("spans_pk", ["project_id", "trace_id", "span_id"])
    .execute();

  // The summary of every trace, recomputed from its spans whenever one of them arrives.
  await db.schema
    .createTable("traces")
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("trace_id", "text", (c) => c.notNull())
    .addColumn("span_count", "integer", (c) => c.notNull())
    .addColumn("error_count", "integer", (c) => c.notNull())
    .addColumn("start_ns", "bigint", (c) => c.notNull())
    .addColumn("end_ns", "bigint", (c) => c.notNull())
    .addColumn("duration_ns", "bigint", (c) => c.notNull())
    .addColumn("root_span_id", "text")
    .addColumn("root_span_name", "text")
    .$call(addTraceFacts)
    .addColumn("tokens_total", "bigint", (c) => c.notNull())
    .addColumn("cost_total_microcents", "bigint", (c) => c.notNull())
    .addColumn("input", "jsonb")
    .addColumn("output", "jsonb")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("traces_pk", ["project_id", "trace_id"])
    .execute();

  // Every sort of the trace list is an index range scan, ties broken by trace id.
  const sorts = {
    start: "start_ns",
    end: "end_ns",
    duration: "duration_ns",
    spans: "span_count",
    errors: "error_count",
    tokens: "tokens_total",
    cost: "cost_total_microcents",
  };
  for (const [name, column] of Object.entries(sorts)) {
    await db.schema
      .createIndex(`traces_by_${name}`)
      .on("traces")
      .columns(["project_id", column, "trace_id"])
      .execute();
  }
  await db.schema
    .createIndex("traces_by_session")
    .on("traces")
    .columns(["project_id", "session_id"])
    .execute();
  await db.schema.createIndex("traces_by_user").on("traces").columns(["project_id", "user_id"]).execute();
}

/**
 * What a span tells about its trace (who, which models, how many tokens): the span keeps its own, and
 * its trace's summary the same columns gathered over its spans.
 */
function addTraceFacts<T extends string, C extends string>(table: CreateTableBuilder<T, C>) {
  return table
    .addColumn("session_id", "text")
    .addColumn("user_id", "text")
    .addColumn("tags", "jsonb", (c) => c.notNull())
    .addColumn("models", "jsonb", (c) => c.notNull())
    .addColumn("tokens_input", "bigint", (c) => c.notNull())
    .addColumn("tokens_output", "bigint", (c) => c.notNull());
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("traces").ifExists().execute();
  await db.schema.dropTable("spans").ifExists().execute();
}
