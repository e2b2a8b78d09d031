import { type Cell, type Span, spanKindNames, spanStatusNames, unixNanosToIso } from "@svc/contracts";
import type { Database } from "@svc/db";
import { type Kysely, sql } from "kysely";

type Attributes = Record<string, Cell>;

/** Every span of one trace, by start time (then span id). */
export async function listSpans(db: Kysely<Database>, projectId: string, traceId: string): Promise<Span[]> {
  const rows = await db
    .selectFrom("spans")
    .select([
      "span_id",
      "parent_span_id",
      "name",
      "kind",
      sql<string>`start_ns::text`.as("start_ns"),
      sql<string>`end_ns::text`.as("end_ns"),
      sql<string>`(end_ns - start_ns)::text`.as("duration_ns"),
      "status_code",
      "status_message",
      "attributes",
      "resource_attributes",
      "scope",
      "events",
      "links",
      "models",
      "input",
      "output",
      sql<string>`tokens_input::text`.as("tokens_input"),
      sql<string>`tokens_output::text`.as("tokens_output"),
      sql<string | null>`cost_microcents::text`.as("cost_microcents"),
    ])
    .where("project_id", "=", projectId)
    .where("trace_id", "=", traceId)
    .orderBy("start_ns")
    .orderBy("span_id")
    .execute();
  return rows.map((row) => ({
    spanId: row.span_id,
    parentSpanId: row.parent_span_id,
    name: row.name,
    kind: spanKindNames[row.kind] ?? "unspecified",
    startTime: unixNanosToIso(row.start_ns),
    endTime: unixNanosToIso(row.end_ns),
    startTimeUnixNano: row.start_ns,
    endTimeUnixNano: row.end_ns,
    durationNs: row.duration_ns,
    status: { code: spanStatusNames[row.status_code] ?? "unset", message: row.status_message },
    attributes: row.attributes as Attributes,
    resourceAttributes: row.resource_attributes as Attributes,
    scope: row.scope as Span["scope"],
    events: (row.events as { name: string; timeUnixNano: string; attributes: Attributes }[]).map((event) => ({
      name: event.name,
      time: unixNanosToIso(event.timeUnixNano),
      timeUnixNano: event.timeUnixNano,
      attributes: event.attributes,
    })),
    links: row.links as Span["links"],
    // The ingest lists the requested model, then the responding one when it differs.
    model: row.models.at(-1) ?? null,
    input: (row.input ?? null) as Cell,
    output: (row.output ?? null) as Cell,
    tokensInput: Number(row.tokens_input),
    tokensOutput: Number(row.tokens_output),
    costMicrocents: row.cost_microcents === null ? null : Number(row.cost_microcents),
  }));
}
