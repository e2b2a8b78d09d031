import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as OTLPProtobufTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import type { Page } from "../factories";
import { projectForSuite, type Target, targets } from "../targets";

interface Trace {
  traceId: string;
  spanCount: number;
  errorCount: number;
  rootSpanName: string | null;
  durationNs: string;
  input: unknown;
  output: unknown;
  [field: string]: unknown;
}
type ExporterConfig = NonNullable<ConstructorParameters<typeof OTLPTraceExporter>[0]>;

/** The real OTLP/HTTP exporter (JSON, or protobuf), recording what each of its exports came back with. */
function exporterTo(
  target: Target,
  project: string,
  options: { apiKey?: string; compression?: ExporterConfig["compression"]; protobuf?: boolean } = {},
) {
  const Exporter = options.protobuf ? OTLPProtobufTraceExporter : OTLPTraceExporter;
  const exporter = new Exporter({
    url: `${target.baseUrl}/v1/traces`,
    headers: { Authorization: `Bearer ${options.apiKey ?? target.ownerKey}`, "X-Svc-Project": project },
    ...(options.compression ? { compression: options.compression } : {}),
  });
  const results: { code: number; error?: Error }[] = [];
  const recording: SpanExporter = {
    export: (spans: ReadableSpan[], done) =>
      exporter.export(spans, (result) => {
        results.push(result);
        done(result);
      }),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
  };
  return { exporter: recording, results };
}

/** An agent run as generative-AI instrumentation records it: the agent, a model call, a failed tool. */
function emitAgentRun(provider: BasicTracerProvider): string {
  const tracer = provider.getTracer("support-bot", "1.0.0");
  const root = tracer.startSpan("support-agent", {
    kind: SpanKind.SERVER,
    attributes: {
      "gen_ai.operation.name": "invoke_agent",
      "session.id": "session-7",
      "user.id": "user-42",
      "svc.tags": ["billing", "e2e"],
      "gen_ai.input.messages": JSON.stringify([{ role: "user", content: "Where is my refund?" }]),
      "gen_ai.output.messages": JSON.stringify([{ role: "assistant", content: "It left today." }]),
    },
  });
  const inRoot = trace.setSpan(context.active(), root);
  const llm = tracer.startSpan(
    "chat gpt-4o",
    {
      kind: SpanKind.CLIENT,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "gpt-4o",
        "gen_ai.response.model": "gpt-4o-2024-08-06",
        "gen_ai.usage.input_tokens": 120,
        "gen_ai.usage.output_tokens": 30,
        "gen_ai.usage.cost": 0.0125,
      },
    },
    inRoot,
  );
  llm.end();
  const tool = tracer.startSpan("lookup-order", { attributes: { "gen_ai.tool.name": "orders" } }, inRoot);
  tool.setStatus({ code: SpanStatusCode.ERROR, message: "order service down" });
  tool.end();
  root.end();
  return root.spanContext().traceId;
}

describe.each(targets())("traces from an OpenTelemetry exporter (%s)", (_name, start) => {
  const suite = projectForSuite(start);

  const tracesPath = () => `/v1/projects/${suite.project}/traces`;
  const listTraces = (body: unknown = {}) => suite.api.post<Page<Trace>>(`${tracesPath()}/list`, body);

  it("ingests what the OTLP/HTTP JSON exporter sends, then lists, gets and imports the trace", async () => {
    const { exporter, results } = exporterTo(suite.target, suite.project);
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ "service.name": "support-bot" }),
      spanProcessors: [new BatchSpanProcessor(exporter)],
    });
    const traceId = emitAgentRun(provider);
    await provider.forceFlush();
    await provider.shutdown();

    expect(results.map((result) => result.code)).toEqual([0]);

    const listed = await listTraces({ filters: [{ field: "traceId", op: "eq", value: traceId }] });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([
      {
        traceId,
        projectId: expect.any(String),
        spanCount: 3,
        errorCount: 1,
        startTime: expect.stringMatching(/Z$/),
        endTime: expect.stringMatching(/Z$/),
        durationNs: expect.stringMatching(/^\d+$/),
        rootSpanName: "support-agent",
        sessionId: "session-7",
        userId: "user-42",
        tags: ["billing", "e2e"],
        models: ["gpt-4o", "gpt-4o-2024-08-06"],
        tokensInput: 120,
        tokensOutput: 30,
        tokensTotal: 150,
        costTotalMicrocents: 1_250_000,
        input: [{ role: "user", content: "Where is my refund?" }],
        output: [{ role: "assistant", content: "It left today." }],
      },
    ]);

    const got = await suite.api.get<Trace & { spans: Record<string, unknown>[] }>(
      `${tracesPath()}/${traceId}`,
    );
    expect(got.status).toBe(200);
    // Spans come by start time; these three may start within the same microsecond, so look them up by name.
    const spans = new Map(got.body.spans.map((span) => [span.name as string, span]));
    expect([...spans.keys()].sort()).toEqual(["chat gpt-4o", "lookup-order", "support-agent"]);
    const root = spans.get("support-agent");
    expect(root).toMatchObject({
      parentSpanId: null,
      kind: "server",
      status: { code: "unset", message: null },
    });
    expect(spans.get("lookup-order")).toMatchObject({
      parentSpanId: root?.spanId,
      kind: "internal",
      status: { code: "error", message: "order service down" },
    });
    expect(spans.get("chat gpt-4o")).toMatchObject({
      parentSpanId: root?.spanId,
      kind: "client",
      attributes: { "gen_ai.request.model": "gpt-4o", "gen_ai.usage.input_tokens": 120 },
      resourceAttributes: expect.objectContaining({ "service.name": "support-bot" }),
      scope: { name: "support-bot", version: "1.0.0" },
    });

    const dataset = await suite.api.post<{ slug: string }>(`/v1/projects/${suite.project}/datasets`, {
      name: "From traces",
    });
    const base = `/v1/projects/${suite.project}/datasets/${dataset.body.slug}`;
    const imported = await suite.api.post<{ versionId: string; version: number; rowIds: string[] }>(
      `${base}/rows/import/traces`,
      { traces: { by: "ids", ids: [traceId] } },
    );
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ version: 1, rowIds: [expect.any(String)] });
    const row = await suite.api.get<Record<string, unknown>>(`${base}/rows/${imported.body.rowIds[0]}`);
    expect(row.body).toMatchObject({
      input: [{ role: "user", content: "Where is my refund?" }],
      output: [{ role: "assistant", content: "It left today." }],
      metadata: expect.objectContaining({ traceId, sessionId: "session-7" }),
      version: 1,
    });
    const version = await suite.api.get<Record<string, unknown>>(`${base}/versions/1`);
    expect(version.body).toMatchObject({ operation: "import", rowsInserted: 1 });
  });

  it("assembles a trace whose spans the exporter sends one by one, gzip-compressed", async () => {
    const { exporter, results } = exporterTo(suite.target, suite.project, {
      compression: "gzip" as ExporterConfig["compression"],
    });
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const traceId = emitAgentRun(provider);
    await provider.forceFlush();
    await provider.shutdown();

    expect(results.map((result) => result.code)).toEqual([0, 0, 0]);
    const got = await suite.api.get<Trace>(`${tracesPath()}/${traceId}`);
    expect(got.body).toMatchObject({
      spanCount: 3,
      errorCount: 1,
      rootSpanName: "support-agent",
      tokensTotal: 150,
    });
  });

  it("lists traces sorted and filtered, page by page", async () => {
    const exported = exporterTo(suite.target, suite.project);
    const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exported.exporter)] });
    const ids = [emitAgentRun(provider), emitAgentRun(provider)];
    await provider.forceFlush();
    await provider.shutdown();

    const filters = [{ field: "tags", op: "contains", value: "e2e" }];
    const first = await listTraces({ filters, limit: 2, sortBy: "startTime", sortDirection: "asc" });
    expect(first.status).toBe(200);
    expect(first.body.hasMore).toBe(true);
    const rest = await listTraces({
      filters,
      limit: 200,
      sortBy: "startTime",
      sortDirection: "asc",
      cursor: first.body.nextCursor,
    });
    const seen = [...first.body.items, ...rest.body.items].map((item) => item.traceId);
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(4);
    expect(seen).toEqual(expect.arrayContaining(ids));
  });

  it.each([
    ["uncompressed", undefined],
    ["gzip-compressed", "gzip"],
  ])("ingests what the OTLP/HTTP protobuf exporter sends, %s, as it does JSON", async (_how, compression) => {
    const { exporter, results } = exporterTo(suite.target, suite.project, {
      protobuf: true,
      ...(compression ? { compression: compression as ExporterConfig["compression"] } : {}),
    });
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ "service.name": "support-bot" }),
      spanProcessors: [new BatchSpanProcessor(exporter)],
    });
    const traceId = emitAgentRun(provider);
    await provider.forceFlush();
    await provider.shutdown();

    expect(results).toEqual([{ code: 0 }]);
    const got = await suite.api.get<Trace & { spans: { spanId: string; parentSpanId: string | null }[] }>(
      `${tracesPath()}/${traceId}`,
    );
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      traceId,
      spanCount: 3,
      errorCount: 1,
      rootSpanName: "support-agent",
      sessionId: "session-7",
      userId: "user-42",
      tags: ["billing", "e2e"],
      models: ["gpt-4o", "gpt-4o-2024-08-06"],
      tokensTotal: 150,
      costTotalMicrocents: 1_250_000,
      input: [{ role: "user", content: "Where is my refund?" }],
      output: [{ role: "assistant", content: "It left today." }],
    });
    // The ids came as bytes and are stored in hex, the children under their parent.
    const root = got.body.spans.find((span) => span.parentSpanId === null);
    expect(root?.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(got.body.spans.filter((span) => span.parentSpanId === root?.spanId)).toHaveLength(2);
  });

  it("refuses a protobuf body that is not an OTLP export with 400, and protobuf elsewhere with 415", async () => {
    const send = (path: string, body: Uint8Array) =>
      fetch(`${suite.target.baseUrl}${path}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${suite.target.ownerKey}`,
          "x-svc-project": suite.project,
          "content-type": "application/x-protobuf",
        },
        body,
      });
    // Field 1 (resource_spans) says it is 16 bytes long, and 2 follow.
    const truncated = await send("/v1/traces", new Uint8Array([0x0a, 0x10, 0x0a, 0x00]));
    expect(truncated.status).toBe(400);
    expect(await truncated.json()).toMatchObject({
      code: "validation_failed",
      error: expect.stringContaining("not an OTLP ExportTraceServiceRequest"),
    });
    // A span without ids decodes, and is refused by the same rules as in JSON.
    const idless = await send("/v1/traces", new Uint8Array([0x0a, 0x06, 0x12, 0x04, 0x12, 0x02, 0x2a, 0x00]));
    expect(idless.status).toBe(400);
    expect(await idless.json()).toMatchObject({ code: "validation_failed" });
    const elsewhere = await send("/v1/projects", new Uint8Array([0x0a, 0x00]));
    expect(elsewhere.status).toBe(415);
    expect(await elsewhere.json()).toMatchObject({
      code: "unsupported_media_type",
      error: expect.stringContaining("only by /v1/traces"),
    });
  });

  it("refuses bodies that are not OTLP and spans without ids, storing nothing", async () => {
    const traceId = randomBytes(16).toString("hex");
    const post = (body: unknown, headers: Record<string, string> = { "x-svc-project": suite.project }) =>
      suite.api.post<{ code: string; error: string; details?: { issues: { path: string }[] } }>(
        "/v1/traces",
        body,
        headers,
      );

    const notOtlp = await post({ spans: [] });
    expect(notOtlp.status).toBe(400);
    expect(notOtlp.body).toMatchObject({
      code: "validation_failed",
      error: expect.stringContaining("resourceSpans"),
    });

    const noSpanId = await post({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId,
                  spanId: "00f067aa0ba902b7",
                  name: "ok",
                  startTimeUnixNano: "1",
                  endTimeUnixNano: "2",
                },
                { traceId, name: "no id", startTimeUnixNano: "1", endTimeUnixNano: "2" },
              ],
            },
          ],
        },
      ],
    });
    expect(noSpanId.status).toBe(400);
    expect(noSpanId.body.details?.issues.map((issue) => issue.path)).toEqual([
      "body.resourceSpans.0.scopeSpans.0.spans.1.spanId",
    ]);
    expect((await suite.api.get(`${tracesPath()}/${traceId}`)).status).toBe(404);

    const noProject = await post({ resourceSpans: [] }, {});
    expect(noProject.status).toBe(400);
    expect(noProject.body.error).toContain("X-Svc-Project");
    const unknownProject = await post({ resourceSpans: [] }, { "x-svc-project": "no-such-project" });
    expect(unknownProject.status).toBe(404);
  });

  it("accepts a gzip body sent by hand and refuses other encodings", async () => {
    const traceId = randomBytes(16).toString("hex");
    const body = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId,
                  spanId: "00f067aa0ba902b7",
                  name: "zipped",
                  startTimeUnixNano: "1",
                  endTimeUnixNano: "5",
                },
              ],
            },
          ],
        },
      ],
    };
    const send = (encoding: string, payload: Uint8Array) =>
      fetch(`${suite.target.baseUrl}/v1/traces`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${suite.target.ownerKey}`,
          "x-svc-project": suite.project,
          "content-type": "application/json",
          "content-encoding": encoding,
        },
        body: payload,
      });

    const zipped = await send("gzip", gzipSync(JSON.stringify(body)));
    expect(zipped.status).toBe(200);
    expect(await zipped.json()).toEqual({ partialSuccess: {} });
    expect((await suite.api.get<Trace>(`${tracesPath()}/${traceId}`)).body).toMatchObject({
      rootSpanName: "zipped",
    });

    expect((await send("br", new Uint8Array([1, 2, 3]))).status).toBe(415);
    expect((await send("gzip", new TextEncoder().encode("not gzip"))).status).toBe(400);
  });

  it("refuses an import of more than 1000 traces with 422 and of unknown traces with 404", async () => {
    const dataset = await suite.api.post<{ slug: string }>(`/v1/projects/${suite.project}/datasets`, {
      name: "Refusals",
    });
    const path = `/v1/projects/${suite.project}/datasets/${dataset.body.slug}/rows/import/traces`;
    const newIds = (count: number) => Array.from({ length: count }, () => randomBytes(16).toString("hex"));

    const tooMany = await suite.api.post<{ code: string }>(path, {
      traces: { by: "ids", ids: newIds(1001) },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.code).toBe("too_many_traces");

    const unknown = newIds(1);
    const missing = await suite.api.post<{ code: string; details: unknown }>(path, {
      traces: { by: "ids", ids: unknown },
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: "not_found", details: { traceIds: unknown } });

    const unknownField = await listTraces({ filters: [{ field: "colour", op: "eq", value: "red" }] });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body).toMatchObject({ code: "validation_failed" });

    const versions = await suite.api.get<Page<unknown>>(
      `/v1/projects/${suite.project}/datasets/${dataset.body.slug}/versions`,
    );
    expect(versions.body.items).toEqual([]);
  });
});
