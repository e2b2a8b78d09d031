import { foldProjectTraces, listTraceRecords } from "@svc/db";
import { availableBackends, harnessForSuite } from "@svc/testing";
import { sql } from "kysely";
import { beforeAll, describe, expect, test } from "vitest";
import { exportRequest, nanosAt, newSpanId, newTraceId, otlpSpan, T0_MS } from "../test-factories";
import { contextOf, failure, ingest, makeProject, type ProjectFixture, startIngest } from "../test-support";

describe.each(availableBackends())("trace ingestion (%s)", (backendName) => {
  const harness = harnessForSuite(() => startIngest(backendName));
  let project: ProjectFixture;

  beforeAll(async () => {
    project = await makeProject(harness.db);
  });

  /** A trace's summary as a read sees it: once the traces marked in its project are folded. */
  const traceOf = async (traceId: string, of: ProjectFixture = project) => {
    await foldProjectTraces(harness.db, of.organizationId, of.projectSlug);
    const [trace] = await listTraceRecords(harness.db, { projectId: of.projectId, traceIds: [traceId] });
    return trace;
  };
  const countRows = async (table: "spans" | "traces", of: ProjectFixture = project) => {
    await foldProjectTraces(harness.db, of.organizationId, of.projectSlug);
    const row = await harness.db
      .selectFrom(table)
      .select(sql<number>`count(*)::int`.as("n"))
      .where("project_id", "=", of.projectId)
      .executeTakeFirstOrThrow();
    return row.n;
  };

  /** An agent run: a root span with the conversation, two model calls under it, one of them failed. */
  function agentRun(traceId = newTraceId()) {
    const root = newSpanId();
    const spans = [
      otlpSpan({
        traceId,
        spanId: root,
        name: "support-agent",
        startMs: 0,
        endMs: 1500,
        attributes: {
          "gen_ai.operation.name": "invoke_agent",
          "session.id": "session-7",
          "user.id": "user-42",
          "svc.tags": ["billing", "escalated"],
          "gen_ai.input.messages": JSON.stringify([{ role: "user", content: "Where is my refund?" }]),
          "gen_ai.output.messages": JSON.stringify([{ role: "assistant", content: "It left today." }]),
        },
      }),
      otlpSpan({
        traceId,
        parentSpanId: root,
        name: "chat gpt-4o",
        startMs: 100,
        endMs: 900,
        attributes: {
          "gen_ai.request.model": "gpt-4o",
          "gen_ai.response.model": "gpt-4o-2024-08-06",
          "gen_ai.usage.input_tokens": 120,
          "gen_ai.usage.output_tokens": 30,
          "gen_ai.usage.cost": 0.0125,
        },
      }),
      otlpSpan({
        traceId,
        parentSpanId: root,
        name: "chat claude",
        startMs: 950,
        endMs: 1400,
        status: { code: 2, message: "rate limited" },
        attributes: {
          "gen_ai.request.model": "claude-3-5-sonnet",
          "gen_ai.usage.prompt_tokens": "80",
          "gen_ai.usage.completion_tokens": 5,
        },
      }),
    ];
    return { traceId, root, spans };
  }

  test("summarises a trace from its root span and the generative-AI attributes of every span", async () => {
    const { traceId, spans } = agentRun();

    expect(await ingest(harness, project, exportRequest(spans))).toEqual({ partialSuccess: {} });

    expect(await traceOf(traceId)).toEqual({
      traceId,
      projectId: project.projectId,
      spanCount: 3,
      errorCount: 1,
      startTime: new Date(T0_MS).toISOString(),
      endTime: new Date(T0_MS + 1500).toISOString(),
      durationNs: "1500000000",
      rootSpanName: "support-agent",
      sessionId: "session-7",
      userId: "user-42",
      tags: ["billing", "escalated"],
      models: ["claude-3-5-sonnet", "gpt-4o", "gpt-4o-2024-08-06"],
      tokensInput: 200,
      tokensOutput: 35,
      tokensTotal: 235,
      // The gpt-4o call's cost as sent, and the claude call's at the shipped price of claude-3-5-sonnet*
      // ($3 and $15 per million tokens): 80 × 300 + 5 × 1,500 microcents.
      costTotalMicrocents: 1_250_000 + 31_500,
      input: [{ role: "user", content: "Where is my refund?" }],
      output: [{ role: "assistant", content: "It left today." }],
      sortValue: nanosAt(0),
    });
  });

  test("keeps each span as sent: attributes as JSON, events, resource and scope", async () => {
    const traceId = newTraceId();
    const spanId = newSpanId();
    const span = otlpSpan({
      traceId,
      spanId,
      name: "tool call",
      kind: 3,
      attributes: { "http.status_code": 200, ratio: 0.5, ok: true, list: ["a", 1], nested: { deep: "x" } },
      events: [{ name: "retry", atMs: 5, attributes: { attempt: 2 } }],
      status: { code: 1 },
    });

    await ingest(harness, project, exportRequest([span], { "service.name": "tools" }));

    const stored = await harness.db
      .selectFrom("spans")
      .selectAll()
      .select([sql<string>`start_ns::text`.as("start_text")])
      .where("project_id", "=", project.projectId)
      .where("span_id", "=", spanId)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      trace_id: traceId,
      parent_span_id: null,
      name: "tool call",
      kind: 3,
      status_code: 1,
      status_message: null,
      start_text: nanosAt(0),
      attributes: { "http.status_code": 200, ratio: 0.5, ok: true, list: ["a", 1], nested: { deep: "x" } },
      resource_attributes: { "service.name": "tools" },
      scope: { name: "test-scope", version: "1.0.0" },
      events: [{ name: "retry", timeUnixNano: nanosAt(5), attributes: { attempt: 2 } }],
      links: [],
    });
  });

  test("assembles a trace whose spans arrive in several requests, children first", async () => {
    const { traceId, spans } = agentRun();
    const [root, first, second] = spans as [Record<string, unknown>, Record<string, unknown>, unknown];

    await ingest(harness, project, exportRequest([first]));
    expect(await traceOf(traceId)).toMatchObject({
      spanCount: 1,
      rootSpanName: "chat gpt-4o",
      tokensTotal: 150,
      input: null,
      durationNs: "800000000",
    });

    await ingest(harness, project, exportRequest([second as Record<string, unknown>]));
    await ingest(harness, project, exportRequest([root]));

    expect(await traceOf(traceId)).toMatchObject({
      spanCount: 3,
      errorCount: 1,
      rootSpanName: "support-agent",
      tokensTotal: 235,
      durationNs: "1500000000",
      sessionId: "session-7",
      input: [{ role: "user", content: "Where is my refund?" }],
    });
    expect(await countRows("spans")).toBeGreaterThanOrEqual(3);
  });

  test("replaces a span sent again instead of counting it twice", async () => {
    const traceId = newTraceId();
    const spanId = newSpanId();
    const send = (tokens: number) =>
      ingest(
        harness,
        project,
        exportRequest([
          otlpSpan({ traceId, spanId, name: "llm", attributes: { "gen_ai.usage.input_tokens": tokens } }),
        ]),
      );

    await send(10);
    await send(25);

    expect(await traceOf(traceId)).toMatchObject({ spanCount: 1, tokensInput: 25, tokensTotal: 25 });
    const copies = await harness.db
      .selectFrom("spans")
      .select(sql<number>`count(*)::int`.as("n"))
      .where("trace_id", "=", traceId)
      .executeTakeFirstOrThrow();
    expect(copies.n).toBe(1);
  });

  test("counts every span when requests for one trace arrive at the same time", async () => {
    const traceId = newTraceId();
    await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        ingest(
          harness,
          project,
          exportRequest([
            otlpSpan({
              traceId,
              parentSpanId: "00000000000000ff",
              startMs: index,
              endMs: 100 + index,
              attributes: { "gen_ai.usage.output_tokens": 1 },
            }),
          ]),
        ),
      ),
    );

    expect(await traceOf(traceId)).toMatchObject({ spanCount: 8, tokensOutput: 8, durationNs: "107000000" });
  });

  test("accepts times as JSON numbers, kinds and status codes by name, and ids in upper case", async () => {
    const traceId = newTraceId();
    const span = {
      ...otlpSpan({ traceId, name: "numbers" }),
      traceId: traceId.toUpperCase(),
      startTimeUnixNano: Number(nanosAt(0)),
      endTimeUnixNano: Number(nanosAt(2)),
      kind: "SPAN_KIND_SERVER",
      status: { code: "STATUS_CODE_ERROR" },
    };

    await ingest(harness, project, exportRequest([span]));

    // A JSON number holds nanoseconds only to the nearest representable double, as OTLP warns.
    const durationNs = (BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano)).toString();
    expect(await traceOf(traceId)).toMatchObject({ traceId, errorCount: 1, durationNs });
    expect(Number(durationNs)).toBeCloseTo(2_000_000, -3);
  });

  test("keeps an exact duration longer than 2^53 nanoseconds", async () => {
    const traceId = newTraceId();
    const span = { ...otlpSpan({ traceId }), startTimeUnixNano: "1", endTimeUnixNano: "9007199254740993" };

    await ingest(harness, project, exportRequest([span]));

    expect((await traceOf(traceId))?.durationNs).toBe("9007199254740992");
  });

  test("stores text PostgreSQL would refuse, with the replacement character", async () => {
    const traceId = newTraceId();
    const span = otlpSpan({
      traceId,
      name: "nul\u0000name",
      attributes: { "gen_ai.prompt": "half a pair \uD83D and a nul \u0000" },
    });

    await ingest(harness, project, exportRequest([span]));

    expect(await traceOf(traceId)).toMatchObject({
      rootSpanName: "nul\uFFFDname",
      input: "half a pair \uFFFD and a nul \uFFFD",
    });
  });

  test("answers an empty export with success and stores nothing", async () => {
    const before = await countRows("traces");
    expect(await ingest(harness, project, { resourceSpans: [] })).toEqual({ partialSuccess: {} });
    expect(await countRows("traces")).toBe(before);
  });

  describe("refuses, storing nothing of the request,", () => {
    let empty: ProjectFixture;
    beforeAll(async () => {
      empty = await makeProject(harness.db);
    });

    const refused = async (body: unknown) => {
      const error = await failure(ingest(harness, empty, body));
      expect(await countRows("spans", empty)).toBe(0);
      expect(await countRows("traces", empty)).toBe(0);
      return error;
    };
    const issuesOf = (error: { details?: unknown }) =>
      (error.details as { issues: { path: string; message: string }[] }).issues;
    const withSecond = (second: Record<string, unknown>) => {
      const traceId = newTraceId();
      return exportRequest([otlpSpan({ traceId }), { ...otlpSpan({ traceId }), ...second }]);
    };

    test.each([
      ["an empty object", {}],
      ["another JSON document", { data: [{ id: 1 }] }],
      ["a list", [{ resourceSpans: [] }]],
      ["a string", "resourceSpans"],
    ])("a body that is not OTLP: %s", async (_label, body) => {
      const error = await refused(body);
      expect(error.code).toBe("validation_failed");
      expect(error.message).toMatch(/OTLP|resourceSpans/);
      expect(issuesOf(error)[0]?.path).toMatch(/^body/);
    });

    test("a span without a trace id, naming where it is", async () => {
      const body = withSecond({});
      const spans = (body.resourceSpans[0] as { scopeSpans: { spans: Record<string, unknown>[] }[] })
        .scopeSpans[0]?.spans;
      delete spans?.[1]?.traceId;

      const error = await refused(body);

      expect(error).toMatchObject({ code: "validation_failed" });
      expect(issuesOf(error)).toEqual([
        {
          path: "body.resourceSpans.0.scopeSpans.0.spans.1.traceId",
          message: "is required: the trace id as 32 hex characters (16 bytes)",
          code: "invalid_type",
        },
      ]);
      expect(error.message).toBe(
        "Request is invalid: body.resourceSpans.0.scopeSpans.0.spans.1.traceId: is required: the trace id as 32 hex characters (16 bytes)",
      );
    });

    test.each([
      [
        "a missing span id",
        { spanId: undefined },
        "spanId",
        "is required: the span id as 16 hex characters (8 bytes)",
      ],
      ["a span id that is too short", { spanId: "abc123" }, "spanId", "must be 16 hex characters (8 bytes)"],
      [
        "a base64 trace id",
        { traceId: "AAECAwQFBgcICQoLDA0ODw==" },
        "traceId",
        "must be 32 hex characters (16 bytes)",
      ],
      ["an all-zero span id", { spanId: "0000000000000000" }, "spanId", "must not be all zeros"],
      [
        "a malformed parent id",
        { parentSpanId: "xyz" },
        "parentSpanId",
        "must be empty or 16 hex characters (8 bytes)",
      ],
      [
        "a missing start time",
        { startTimeUnixNano: undefined },
        "startTimeUnixNano",
        expect.stringContaining("is required"),
      ],
      [
        "an end before the start",
        { endTimeUnixNano: "1" },
        "endTimeUnixNano",
        "endTimeUnixNano must not be before startTimeUnixNano",
      ],
      ["an unknown kind", { kind: 9 }, "kind", expect.stringContaining("must be a span kind")],
    ])("%s", async (_label, change, field, message) => {
      const error = await refused(withSecond(change));
      expect(error.code).toBe("validation_failed");
      expect(issuesOf(error)).toContainEqual(
        expect.objectContaining({ path: `body.resourceSpans.0.scopeSpans.0.spans.1.${field}`, message }),
      );
    });

    test("a request without X-Svc-Project", async () => {
      const error = await failure(ingest(harness, empty, exportRequest([]), { headers: {} }));
      expect(error).toMatchObject({
        code: "validation_failed",
        message:
          "Request is invalid: header.X-Svc-Project: is required: the slug of the project the traces belong to, in X-Svc-Project",
      });
    });

    test("a project that does not exist, or is another organisation's", async () => {
      const body = exportRequest([otlpSpan({ traceId: newTraceId() })]);
      const unknown = await failure(ingest(harness, empty, body, { headers: { xSvcProject: "no-such" } }));
      const foreign = await failure(
        ingest(harness, empty, body, { context: contextOf(project.organizationId) }),
      );

      expect(unknown).toEqual({
        code: "not_found",
        message: 'Project "no-such" not found; set X-Svc-Project to the slug of one of your projects',
        details: { project: "no-such" },
      });
      expect(foreign).toMatchObject({ code: "not_found" });
      expect(await countRows("spans", empty)).toBe(0);
    });

    test("a viewer key", async () => {
      const error = await failure(
        ingest(harness, empty, exportRequest([otlpSpan({ traceId: newTraceId() })]), {
          context: contextOf(empty.organizationId, "viewer"),
        }),
      );
      expect(error).toMatchObject({ code: "forbidden" });
      expect(await countRows("spans", empty)).toBe(0);
    });
  });
  describe("with an Idempotency-Key", () => {
    const keyed = (key: string, of: ProjectFixture = project) => ({
      context: { ...contextOf(of.organizationId), idempotencyKey: key },
    });
    const spanName = async (spanId: string) =>
      (
        await harness.db
          .selectFrom("spans")
          .select("name")
          .where("project_id", "=", project.projectId)
          .where("span_id", "=", spanId)
          .execute()
      ).map((row) => row.name);

    test("answers a retry with the first answer without storing its spans again", async () => {
      const traceId = newTraceId();
      const spanId = newSpanId();
      const first = exportRequest([otlpSpan({ traceId, spanId, name: "first copy" })]);
      expect(await ingest(harness, project, first, keyed("export-1"))).toEqual({ partialSuccess: {} });
      // A later export re-sends the span; a replay of the first must not put the first copy back.
      await ingest(harness, project, exportRequest([otlpSpan({ traceId, spanId, name: "second copy" })]));

      expect(await ingest(harness, project, first, keyed("export-1"))).toEqual({ partialSuccess: {} });

      expect(await spanName(spanId)).toEqual(["second copy"]);
      expect(await traceOf(traceId)).toMatchObject({ spanCount: 1, rootSpanName: "second copy" });
    });

    test("refuses the key with another body with 409 idempotency_key_reused, storing nothing", async () => {
      await ingest(harness, project, exportRequest([otlpSpan({ traceId: newTraceId() })]), keyed("export-2"));
      const traceId = newTraceId();

      const error = await failure(
        ingest(harness, project, exportRequest([otlpSpan({ traceId })]), keyed("export-2")),
      );

      expect(error).toEqual({
        code: "idempotency_key_reused",
        message:
          "This Idempotency-Key was already used with a different request; use a new key for a new request",
        details: { idempotencyKey: "export-2" },
      });
      expect(await traceOf(traceId)).toBeUndefined();
    });

    test("refuses the key on an empty export with another body too", async () => {
      await ingest(harness, project, exportRequest([]), keyed("export-3"));

      const error = await failure(
        ingest(harness, project, exportRequest([otlpSpan({ traceId: newTraceId() })]), keyed("export-3")),
      );

      expect(error.code).toBe("idempotency_key_reused");
    });

    test("does not spend the key on a request refused for its project", async () => {
      const traceId = newTraceId();
      const body = exportRequest([otlpSpan({ traceId })]);
      const refused = await failure(
        ingest(harness, project, body, { ...keyed("export-4"), headers: { xSvcProject: "no-such" } }),
      );
      expect(refused.code).toBe("not_found");

      expect(await ingest(harness, project, body, keyed("export-4"))).toEqual({ partialSuccess: {} });
      expect(await traceOf(traceId)).toMatchObject({ spanCount: 1 });
    });
  });
});
