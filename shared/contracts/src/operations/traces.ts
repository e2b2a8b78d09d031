import { datasetPathSchema, projectPathSchema } from "../schemas/datasets";
import { importTracesBodySchema, listTracesBodySchema, MAX_IMPORTED_TRACES } from "../schemas/filters";
import {
  listTraceGroupsQuerySchema,
  MAX_METRIC_BUCKETS,
  MAX_METRIC_GROUPS,
  traceMetricsQuerySchema,
  traceMetricsSchema,
  traceSessionPageSchema,
  traceUserPageSchema,
} from "../schemas/monitoring";
import { ingestTracesBodySchema, ingestTracesHeadersSchema, ingestTracesResultSchema } from "../schemas/otlp";
import { insertRowsResultSchema } from "../schemas/row-edits";
import { tracePageSchema, tracePathSchema, traceWithSpansSchema } from "../schemas/trace-views";
import { subjects } from "../subjects";
import { defineOperation } from "./define";

const TRACES = "/v1/projects/{projectSlug}/traces";

export const ingestTraces = defineOperation({
  operationId: "ingestTraces",
  command: "ingest",
  method: "POST",
  path: "/v1/traces",
  tag: "traces",
  summary: "Ingest spans from any OpenTelemetry exporter (OTLP/HTTP, JSON or protobuf)",
  description: [
    "Point an OpenTelemetry OTLP/HTTP exporter at this URL, with `Authorization: Bearer <API_KEY>` and `X-Svc-Project: <projectSlug>` headers: JSON (`Content-Type: application/json`) or protobuf (`application/x-protobuf`, an `ExportTraceServiceRequest` of opentelemetry-proto), either gzip-compressed or not. A protobuf body is decoded into the JSON encoding and checked by the same rules; its answer is an `ExportTraceServiceResponse` in protobuf. Protobuf bytes that are not such a message are 400 validation_failed.",
    "Spans of one trace may arrive in several requests: each span is stored once per (project, traceId, spanId), a re-sent span replaces the earlier copy, and the trace's summary is recomputed from all its spans.",
    "A request is all or nothing: a body that is not OTLP, or any span with a missing or malformed id or time (a time is at most 9223372036854775807 ns, and a span must not end before it starts), is 400 validation_failed naming the problem, and nothing of the request is stored. Success is OTLP's `{partialSuccess: {}}`.",
    "Text that cannot be stored as Unicode (the character U+0000, a UTF-16 surrogate without its pair) is stored with U+FFFD in its place, where every other operation refuses it.",
  ].join("\n\n"),
  subject: subjects.traces.ingest,
  access: "member",
  headers: ingestTracesHeadersSchema,
  body: ingestTracesBodySchema,
  response: ingestTracesResultSchema,
  successStatus: 200,
  errors: ["not_found", "payload_too_large", "unsupported_media_type"],
  // A re-sent span replaces its earlier copy: sending the same spans again changes nothing more.
  effect: { destructive: true, idempotent: true },
  // An exporter cannot fix one odd character in a batch of spans: store it as U+FFFD rather than drop all.
  unstorableText: "replace",
});

export const listTraces = defineOperation({
  operationId: "listTraces",
  command: "list",
  method: "POST",
  path: `${TRACES}/list`,
  tag: "traces",
  summary: "List the project's traces, sorted and filtered",
  description:
    "Cursor-paginated like every list, with the cursor and limit in the body. `sortBy` defaults to `startTime`, `sortDirection` to `desc`. `filters` is a list of `{field, op, value}` conditions that all hold; a field that is not filterable is 400 validation_failed naming it. A cursor only continues the list it came from (same sort and filters).",
  subject: subjects.traces.list,
  access: "viewer",
  params: projectPathSchema,
  body: listTracesBodySchema,
  response: tracePageSchema,
  successStatus: 200,
  errors: ["not_found"],
  paginated: true,
  readOnly: true,
});

export const getTrace = defineOperation({
  operationId: "getTrace",
  command: "get",
  method: "GET",
  path: `${TRACES}/{traceId}`,
  tag: "traces",
  summary: "One trace: its summary and every span",
  subject: subjects.traces.get,
  access: "viewer",
  params: tracePathSchema,
  response: traceWithSpansSchema,
  successStatus: 200,
  errors: ["not_found"],
});

export const importDatasetRowsFromTraces = defineOperation({
  operationId: "importDatasetRowsFromTraces",
  command: "import-traces",
  method: "POST",
  path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/import/traces",
  tag: "datasets",
  summary: `Add one row per trace (by ids or by filters, at most ${MAX_IMPORTED_TRACES}) as one new dataset version`,
  description: `Each trace of the dataset's project becomes a new row: its input and output become the row's \`input\` and \`output\`, and \`metadata\` records where it came from (\`traceId\` and the trace's summary). The whole import is one dataset version (operation \`import\`). More than ${MAX_IMPORTED_TRACES} traces is 422 too_many_traces; trace ids that do not exist are 404 naming them; either way nothing is written.`,
  subject: subjects.rows.importTraces,
  access: "member",
  params: datasetPathSchema,
  body: importTracesBodySchema,
  response: insertRowsResultSchema,
  successStatus: 201,
  errors: ["not_found", "too_many_traces", "unknown_column", "conflict"],
});

export const getTraceMetrics = defineOperation({
  operationId: "getTraceMetrics",
  command: "metrics",
  method: "GET",
  path: `${TRACES}/metrics`,
  tag: "traces",
  summary: "The project's traces over time: counts, errors, latency percentiles, tokens and cost per bucket",
  description: [
    `One point per bucket (UTC minute, hour or day) from \`from\` rounded down to its bucket to \`to\` rounded up, and per group with \`groupBy\`; a bucket without traces is there with zeros. A trace counts in the bucket where it started. More than ${MAX_METRIC_BUCKETS} buckets is 400 validation_failed naming the limit: ask for a wider bucket or a shorter range.`,
    `\`groupBy=model\` and \`groupBy=tag\` count a trace once in each of its models or tags (and in group null if it has none), so groups may add up to more than all traces. The ${MAX_METRIC_GROUPS} groups with the most traces in the range have their own series; the others are summed into one series with \`otherGroups: true\`.`,
    "The numbers come from totals the platform keeps per minute and per hour as spans arrive, so a page over months answers as fast as one over an hour. Counts, tokens and cost are exact; latencyP50Ms and latencyP95Ms are read from a histogram of trace durations whose buckets are 2^(1/8) apart (about 9%), and so are within 5% of the exact percentile. A trace whose spans arrive over several requests is counted once, with its summary as it stands.",
  ].join("\n\n"),
  subject: subjects.traces.metrics,
  access: "viewer",
  params: projectPathSchema,
  query: traceMetricsQuerySchema,
  response: traceMetricsSchema,
  successStatus: 200,
  errors: ["not_found"],
  readOnly: true,
});

const GROUP_LIST_RULES =
  "Cursor-paginated like every list. `sortBy` defaults to `lastTime` and `sortDirection` to `desc`; `from` and `to` keep only the traces that started in that range, and the totals count only those.";

export const listTraceSessions = defineOperation({
  operationId: "listTraceSessions",
  command: "sessions",
  method: "GET",
  path: `${TRACES}/sessions`,
  tag: "traces",
  summary: "The project's sessions: traces grouped by session.id, with their totals",
  description: `${GROUP_LIST_RULES} A trace's session is the \`session.id\` (or \`gen_ai.conversation.id\`) of its root span, or of its earliest span that has one; traces without one are in no session.`,
  subject: subjects.traces.sessions,
  access: "viewer",
  params: projectPathSchema,
  query: listTraceGroupsQuerySchema,
  response: traceSessionPageSchema,
  successStatus: 200,
  errors: ["not_found"],
  paginated: true,
});

export const listTraceUsers = defineOperation({
  operationId: "listTraceUsers",
  command: "users",
  method: "GET",
  path: `${TRACES}/users`,
  tag: "traces",
  summary: "The project's users: traces grouped by user.id, with their totals",
  description: `${GROUP_LIST_RULES} A trace's user is the \`user.id\` (or \`enduser.id\`) of its root span, or of its earliest span that has one; traces without one belong to no user.`,
  subject: subjects.traces.users,
  access: "viewer",
  params: projectPathSchema,
  query: listTraceGroupsQuerySchema,
  response: traceUserPageSchema,
  successStatus: 200,
  errors: ["not_found"],
  paginated: true,
});
