import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { client } from "../http";
import { projectForSuite, targets } from "../targets";

/* Monitoring over HTTP: metrics, each span's generative-AI fields, sessions, users and model prices. */

const newTraceId = () => randomBytes(16).toString("hex");
const newSpanId = () => randomBytes(8).toString("hex");
const nanos = (iso: string, plusMs = 0) => (BigInt(Date.parse(iso) + plusMs) * 1_000_000n).toString();
const text = (value: string) => ({ stringValue: value });
const int = (value: number) => ({ intValue: String(value) });

interface SpanSpec {
  traceId: string;
  spanId?: string;
  parentSpanId?: string;
  name?: string;
  at: string;
  durationMs?: number;
  error?: boolean;
  attributes?: Record<string, { stringValue: string } | { intValue: string }>;
}

/** An OTLP/HTTP JSON export of the spans, as an exporter sends it. */
const exportOf = (spans: readonly SpanSpec[]) => ({
  resourceSpans: [
    {
      resource: { attributes: [{ key: "service.name", value: text("support-bot") }] },
      scopeSpans: [
        {
          scope: { name: "monitoring-e2e" },
          spans: spans.map((span) => ({
            traceId: span.traceId,
            spanId: span.spanId ?? newSpanId(),
            ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
            name: span.name ?? "agent",
            kind: 1,
            startTimeUnixNano: nanos(span.at),
            endTimeUnixNano: nanos(span.at, span.durationMs ?? 100),
            ...(span.error ? { status: { code: 2, message: "failed" } } : {}),
            attributes: Object.entries(span.attributes ?? {}).map(([key, value]) => ({ key, value })),
          })),
        },
      ],
    },
  ],
});

/** A model call's attributes: the model and its tokens, without a cost. */
const llmCall = (model: string, input: number, output: number) => ({
  "gen_ai.request.model": text(model),
  "gen_ai.usage.input_tokens": int(input),
  "gen_ai.usage.output_tokens": int(output),
});

interface MetricPoint {
  time: string;
  group: string | null;
  otherGroups: boolean;
  traces: number;
  errors: number;
  latencyP50Ms: number;
  latencyP95Ms: number;
  tokensInput: number;
  tokensOutput: number;
  costMicrocents: number;
}

describe.each(targets())("monitoring (%s)", (_name, start) => {
  const suite = projectForSuite(start, { newOrganization: true });
  const traces = () => `/v1/projects/${suite.project}/traces`;
  const ingest = async (spans: readonly SpanSpec[]) => {
    const response = await suite.api.post("/v1/traces", exportOf(spans), { "x-svc-project": suite.project });
    expect(response.status).toBe(200);
  };
  const metrics = (query: string) => suite.api.get<{ series: MetricPoint[] }>(`${traces()}/metrics?${query}`);

  it("counts traces per bucket and group, with zeros where none started, and bounds the buckets", async () => {
    const [a, b, c] = [newTraceId(), newTraceId(), newTraceId()];
    await ingest([
      { traceId: a, at: "2024-03-01T00:10:00Z", durationMs: 100, attributes: llmCall("gpt-4o", 1000, 100) },
      {
        traceId: b,
        at: "2024-03-01T00:40:00Z",
        durationMs: 300,
        error: true,
        attributes: llmCall("claude-3-haiku", 100, 10),
      },
      { traceId: c, at: "2024-03-01T02:05:00Z", durationMs: 1000, attributes: llmCall("gpt-4o", 0, 0) },
    ]);

    const all = await metrics("from=2024-03-01T00:00:00Z&to=2024-03-01T03:00:00Z&bucket=hour");
    expect(all.status).toBe(200);
    // gpt-4o at $2.50/$10 per million: 1000 × 250 + 100 × 1000; claude-3-haiku at $0.25/$1.25: 100 × 25 + 10 × 125.
    expect(all.body.series).toEqual([
      {
        time: "2024-03-01T00:00:00.000Z",
        group: null,
        otherGroups: false,
        traces: 2,
        errors: 1,
        latencyP50Ms: expect.any(Number),
        latencyP95Ms: expect.any(Number),
        tokensInput: 1100,
        tokensOutput: 110,
        costMicrocents: 350_000 + 3_750,
      },
      {
        time: "2024-03-01T01:00:00.000Z",
        group: null,
        otherGroups: false,
        traces: 0,
        errors: 0,
        latencyP50Ms: 0,
        latencyP95Ms: 0,
        tokensInput: 0,
        tokensOutput: 0,
        costMicrocents: 0,
      },
      expect.objectContaining({ time: "2024-03-01T02:00:00.000Z", traces: 1, errors: 0 }),
    ]);
    // Percentiles are read off a histogram: within 5% of the durations (100 ms and 300 ms, then 1 s).
    const within5 = (value: number | undefined, exact: number) =>
      expect(Math.abs((value ?? 0) - exact)).toBeLessThanOrEqual(exact * 0.05);
    within5(all.body.series[0]?.latencyP50Ms, 100);
    within5(all.body.series[0]?.latencyP95Ms, 300);
    within5(all.body.series[2]?.latencyP95Ms, 1000);

    const byModel = await metrics(
      "from=2024-03-01T00:00:00Z&to=2024-03-01T01:00:00Z&bucket=minute&groupBy=model",
    );
    expect(byModel.status).toBe(200);
    expect(byModel.body.series).toHaveLength(60 * 2);
    expect(byModel.body.series.filter((point) => point.traces > 0)).toEqual([
      expect.objectContaining({ time: "2024-03-01T00:10:00.000Z", group: "gpt-4o", traces: 1 }),
      expect.objectContaining({
        time: "2024-03-01T00:40:00.000Z",
        group: "claude-3-haiku",
        traces: 1,
        errors: 1,
      }),
    ]);

    const byDay = await metrics("from=2024-03-01T05:00:00Z&to=2024-03-02T00:00:00Z&bucket=day");
    expect(byDay.body.series).toEqual([
      expect.objectContaining({ time: "2024-03-01T00:00:00.000Z", traces: 3 }),
    ]);

    const tooMany = await metrics("from=2024-01-01T00:00:00Z&to=2024-03-01T00:00:00Z&bucket=minute");
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ code: "validation_failed", error: expect.stringContaining("1440") });
    expect((await metrics("from=yesterday")).status).toBe(400);
  });

  it("returns each span's model, messages, tokens and cost, and a span whose parent never came", async () => {
    const traceId = newTraceId();
    const root = newSpanId();
    const orphan = newSpanId();
    await ingest([
      {
        traceId,
        spanId: root,
        name: "agent",
        at: "2024-03-02T10:00:00Z",
        durationMs: 2000,
        attributes: { "gen_ai.input.messages": text(JSON.stringify([{ role: "user", content: "refund?" }])) },
      },
      {
        traceId,
        parentSpanId: root,
        name: "chat",
        at: "2024-03-02T10:00:00.500Z",
        attributes: {
          ...llmCall("gpt-4o-mini", 2000, 100),
          "gen_ai.response.model": text("gpt-4o-mini-2024-07-18"),
          "gen_ai.output.messages": text(JSON.stringify([{ role: "assistant", content: "sent" }])),
        },
      },
      { traceId, spanId: orphan, parentSpanId: newSpanId(), name: "late tool", at: "2024-03-02T10:00:01Z" },
    ]);

    const got = await suite.api.get<{ spans: Record<string, unknown>[] }>(`${traces()}/${traceId}`);
    expect(got.status).toBe(200);
    expect(got.body.spans).toEqual([
      expect.objectContaining({
        spanId: root,
        model: null,
        input: [{ role: "user", content: "refund?" }],
        costMicrocents: null,
      }),
      expect.objectContaining({
        name: "chat",
        model: "gpt-4o-mini-2024-07-18",
        output: [{ role: "assistant", content: "sent" }],
        tokensInput: 2000,
        tokensOutput: 100,
        // gpt-4o-mini* at $0.15/$0.60 per million tokens.
        costMicrocents: 2000 * 15 + 100 * 60,
      }),
      expect.objectContaining({ spanId: orphan, parentSpanId: expect.stringMatching(/^[0-9a-f]{16}$/) }),
    ]);
  });

  it("counts the traces a filter keeps exactly, and searches the input and output text", async () => {
    const needle = `parcel-${randomBytes(4).toString("hex")}`;
    const ids = [newTraceId(), newTraceId(), newTraceId()];
    await ingest(
      ids.map((traceId, index) => ({
        traceId,
        at: "2024-03-03T00:00:00Z",
        attributes: {
          "gen_ai.input.messages": text(
            JSON.stringify([{ role: "user", content: index < 2 ? `Where is my ${needle}?` : "hi" }]),
          ),
        },
      })),
    );
    const listed = await suite.api.post<{ items: { traceId: string }[]; total: number; hasMore: boolean }>(
      `${traces()}/list`,
      { limit: 1, filters: [{ field: "text", op: "contains", value: needle.toUpperCase() }] },
    );
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ total: 2, hasMore: true });
    expect(ids.slice(0, 2)).toContain(listed.body.items[0]?.traceId);

    const everything = await suite.api.post<{ total: number }>(`${traces()}/list`, { limit: 1 });
    const counted = await metrics("from=2024-03-01T00:00:00Z&to=2024-03-04T00:00:00Z&bucket=day");
    expect(everything.body.total).toBe(counted.body.series.reduce((sum, point) => sum + point.traces, 0));
  });

  it("stores a re-sent batch once: the same spans, the same metrics", async () => {
    const traceId = newTraceId();
    const spans = [
      { traceId, spanId: newSpanId(), at: "2024-03-04T08:00:00Z", attributes: llmCall("gpt-4o", 10, 1) },
      { traceId, spanId: newSpanId(), at: "2024-03-04T08:00:00.100Z" },
    ];
    await ingest(spans);
    await ingest(spans);
    const got = await suite.api.get<{ spanCount: number; spans: unknown[] }>(`${traces()}/${traceId}`);
    expect(got.body).toMatchObject({ spanCount: 2, spans: [expect.anything(), expect.anything()] });
    const point = await metrics("from=2024-03-04T08:00:00Z&to=2024-03-04T09:00:00Z&bucket=hour");
    expect(point.body.series).toEqual([expect.objectContaining({ traces: 1, tokensInput: 10 })]);
  });

  it("lists, counts and charts a trace as soon as its export is answered, and again after each later one", async () => {
    const traceId = newTraceId();
    const root = newSpanId();
    const at = "2024-03-09T10:00:00Z";
    const listed = async () => {
      const page = await suite.api.post<{
        items: { spanCount: number; rootSpanName: string }[];
        total: number;
      }>(`${traces()}/list`, { filters: [{ field: "traceId", op: "eq", value: traceId }] });
      return {
        total: page.body.total,
        items: page.body.items.map(({ spanCount, rootSpanName }) => ({ spanCount, rootSpanName })),
      };
    };
    const byRoot = async () =>
      (
        await metrics("from=2024-03-09T10:00:00Z&to=2024-03-09T11:00:00Z&bucket=hour&groupBy=rootSpanName")
      ).body.series
        .filter((point) => point.traces > 0)
        .map(({ group, traces, tokensInput }) => ({ group, traces, tokensInput }));

    // The model call first, as exporters send a parent after its children: it stands in for the root.
    await ingest([
      {
        traceId,
        parentSpanId: root,
        name: "chat",
        at: "2024-03-09T10:00:00.100Z",
        attributes: llmCall("gpt-4o", 7, 1),
      },
    ]);
    expect(await listed()).toEqual({ total: 1, items: [{ spanCount: 1, rootSpanName: "chat" }] });
    expect(await byRoot()).toEqual([{ group: "chat", traces: 1, tokensInput: 7 }]);

    await ingest([{ traceId, spanId: root, name: "agent", at, durationMs: 1000 }]);
    expect(await listed()).toEqual({ total: 1, items: [{ spanCount: 2, rootSpanName: "agent" }] });
    expect(await byRoot()).toEqual([{ group: "agent", traces: 1, tokensInput: 7 }]);
  });

  it("groups traces by session and by user, with totals, page by page", async () => {
    const session = `session-${randomBytes(4).toString("hex")}`;
    const attributes = (user: string) => ({
      "session.id": text(session),
      "user.id": text(user),
      ...llmCall("gpt-4o", 100, 0),
    });
    await ingest([
      { traceId: newTraceId(), at: "2024-03-05T00:00:00Z", attributes: attributes("ann") },
      { traceId: newTraceId(), at: "2024-03-05T01:00:00Z", error: true, attributes: attributes("bob") },
    ]);
    const range = "from=2024-03-05T00:00:00Z&to=2024-03-06T00:00:00Z";
    const sessions = await suite.api.get<{ items: unknown[] }>(`${traces()}/sessions?${range}`);
    expect(sessions.status).toBe(200);
    expect(sessions.body.items).toEqual([
      {
        sessionId: session,
        traces: 2,
        errors: 1,
        tokensInput: 200,
        tokensOutput: 0,
        tokensTotal: 200,
        costMicrocents: 50_000,
        firstTime: "2024-03-05T00:00:00.000Z",
        lastTime: "2024-03-05T01:00:00.000Z",
      },
    ]);
    const first = await suite.api.get<{ items: { userId: string }[]; nextCursor: string; hasMore: boolean }>(
      `${traces()}/users?${range}&limit=1&sortBy=lastTime&sortDirection=asc`,
    );
    expect(first.body).toMatchObject({ items: [{ userId: "ann", traces: 1 }], hasMore: true });
    const second = await suite.api.get<{ items: { userId: string }[]; hasMore: boolean }>(
      `${traces()}/users?${range}&limit=1&sortBy=lastTime&sortDirection=asc&cursor=${encodeURIComponent(first.body.nextCursor)}`,
    );
    expect(second.body).toMatchObject({ items: [{ userId: "bob", errors: 1 }], hasMore: false });
    expect((await suite.api.get(`${traces()}/users?sortBy=name`)).status).toBe(400);
  });

  it("prices spans with the organisation's own price from its day on, never rewriting stored ones", async () => {
    const model = `house-model-${randomBytes(3).toString("hex")}`;
    const before = newTraceId();
    await ingest([{ traceId: before, at: "2024-03-06T00:00:00Z", attributes: llmCall(model, 1000, 0) }]);

    const set = await suite.api.post<{ id: string; source: string }>("/v1/model-prices", {
      model: `${model}*`,
      effectiveFrom: "2024-03-01",
      inputUsdPerMillionTokens: 1,
      outputUsdPerMillionTokens: 2,
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      source: "organization",
      model: `${model}*`,
      effectiveFrom: "2024-03-01",
    });

    const after = newTraceId();
    const early = newTraceId();
    await ingest([
      { traceId: after, at: "2024-03-06T00:00:00Z", attributes: llmCall(`${model}-v2`, 1000, 10) },
      { traceId: early, at: "2024-02-28T00:00:00Z", attributes: llmCall(model, 1000, 0) },
    ]);
    const costOf = async (traceId: string) =>
      (await suite.api.get<{ costTotalMicrocents: number }>(`${traces()}/${traceId}`)).body
        .costTotalMicrocents;
    expect(await costOf(before)).toBe(0);
    expect(await costOf(after)).toBe(1000 * 100 + 10 * 200);
    expect(await costOf(early)).toBe(0);

    const listed = await suite.api.get<{ modelPrices: { id: string; model: string; source: string }[] }>(
      "/v1/model-prices",
    );
    expect(listed.body.modelPrices).toContainEqual(
      expect.objectContaining({ id: set.body.id, source: "organization" }),
    );
    const shipped = listed.body.modelPrices.find((price) => price.model === "gpt-4o*");
    expect(shipped).toMatchObject({
      source: "default",
      inputUsdPerMillionTokens: 2.5,
      outputUsdPerMillionTokens: 10,
    });

    const viewer = await suite.api.post<{ token: string }>("/v1/api-keys", {
      name: "watcher",
      role: "viewer",
    });
    const asViewer = client(suite.target.baseUrl, viewer.body.token);
    expect((await asViewer.get("/v1/model-prices")).status).toBe(200);
    expect(
      (
        await asViewer.post("/v1/model-prices", {
          model: "x",
          inputUsdPerMillionTokens: 1,
          outputUsdPerMillionTokens: 1,
        })
      ).status,
    ).toBe(403);

    expect((await suite.api.delete(`/v1/model-prices/${encodeURIComponent(shipped?.id ?? "")}`)).status).toBe(
      409,
    );
    expect((await suite.api.delete(`/v1/model-prices/${set.body.id}`)).status).toBe(204);
    expect((await suite.api.delete(`/v1/model-prices/${set.body.id}`)).status).toBe(404);
    expect(
      (
        await suite.api.post("/v1/model-prices", {
          model: "a*b",
          inputUsdPerMillionTokens: -1,
          outputUsdPerMillionTokens: 1,
        })
      ).status,
    ).toBe(400);
  });

  it("answers a 10,000-deep chain of spans, and spans at the epoch and at the last representable time", async () => {
    const traceId = newTraceId();
    const ids = Array.from({ length: 10_000 }, () => newSpanId());
    const chain = ids.map((spanId, depth) => ({
      traceId,
      spanId,
      ...(depth > 0 ? { parentSpanId: ids[depth - 1] } : {}),
      name: `step ${depth}`,
      at: "2024-03-07T00:00:00Z",
      durationMs: 10_000 - depth,
    }));
    // As an exporter sends them: in batches of at most 512 spans.
    for (let start = 0; start < chain.length; start += 500) await ingest(chain.slice(start, start + 500));
    const got = await suite.api.get<{ spanCount: number; spans: unknown[] }>(`${traces()}/${traceId}`);
    expect(got.status).toBe(200);
    expect(got.body.spanCount).toBe(10_000);
    expect(got.body.spans).toHaveLength(10_000);

    const edges = exportOf([{ traceId: newTraceId(), at: "1970-01-01T00:00:00Z" }]);
    const last = newTraceId();
    const span = edges.resourceSpans[0]?.scopeSpans[0]?.spans[0];
    if (!span) throw new Error("no span");
    const late = {
      ...span,
      traceId: last,
      startTimeUnixNano: "9223372036854775000",
      endTimeUnixNano: "9223372036854775807",
    };
    edges.resourceSpans[0]?.scopeSpans[0]?.spans.push(late);
    expect((await suite.api.post("/v1/traces", edges, { "x-svc-project": suite.project })).status).toBe(200);
    const epoch = await metrics("from=1970-01-01T00:00:00Z&to=1970-01-01T01:00:00Z&bucket=hour");
    expect(epoch.body.series).toEqual([expect.objectContaining({ traces: 1 })]);
    expect((await suite.api.get(`${traces()}/${last}`)).status).toBe(200);
  });
});
