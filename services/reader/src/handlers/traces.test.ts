import { callOperation } from "@svc/bus";
import { operations, type RequestContext, type Trace } from "@svc/contracts";
import { availableBackends, isoAt, nanosAt, newTraceId, type TraceSeed } from "@svc/testing";
import { makeProject, type ProjectFixture } from "@svc/testing/datasets";
import { beforeAll, describe, expect, test } from "vitest";
import { contextOf, failure, readerSuite } from "../test-support";
import { makeSpans, makeTrace } from "../trace-factories";

/** A trace with every summary field set, so that the whole summary can be checked against it. */
const refund = {
  startMs: 1000,
  durationMs: 1500,
  rootSpanName: "Support-Agent",
  sessionId: "s-1",
  userId: "ann",
  tags: ["billing", "escalated"],
  models: ["gpt-4o"],
  tokensInput: 200,
  tokensOutput: 35,
  costTotalMicrocents: 1_250_000,
  spanCount: 3,
  errorCount: 1,
  input: [{ role: "user", content: "Where is my refund?" }],
  output: "It left today.",
} satisfies TraceSeed;

describe.each(availableBackends())("trace queries (%s)", (backendName) => {
  const reader = readerSuite(backendName);

  const list = (project: ProjectFixture, body?: unknown, context?: RequestContext) =>
    callOperation(reader.caller, operations.listTraces, context ?? contextOf(project.organizationId), {
      params: { projectSlug: project.projectSlug },
      query: {},
      body,
      headers: {},
    });
  const get = (project: ProjectFixture, traceId: string, context?: RequestContext) =>
    callOperation(reader.caller, operations.getTrace, context ?? contextOf(project.organizationId), {
      params: { projectSlug: project.projectSlug, traceId },
      query: {},
      body: undefined,
      headers: {},
    });
  const ids = (items: readonly Trace[]) => items.map((item) => item.traceId);

  describe("listTraces", () => {
    let project: ProjectFixture;
    /** Five traces whose fields order them differently; named for readability. */
    let traces: Record<"refund" | "greeting" | "outage" | "invoice" | "silent", string>;

    beforeAll(async () => {
      project = await makeProject(reader.db);
      const seed = (s: TraceSeed) => makeTrace(reader.db, project, s);
      traces = {
        refund: await seed(refund),
        greeting: await seed({
          startMs: 2000,
          durationMs: 100,
          rootSpanName: "greeter",
          sessionId: "s-1",
          userId: "bob",
          tags: ["smalltalk"],
          models: ["claude-3-5-sonnet"],
          tokensInput: 10,
          tokensOutput: 5,
          costTotalMicrocents: 300,
        }),
        outage: await seed({
          startMs: 3000,
          durationMs: 9000,
          rootSpanName: "support-agent",
          sessionId: "s-2",
          userId: "ann",
          tags: ["escalated"],
          models: ["gpt-4o", "gpt-4o-mini"],
          tokensInput: 900,
          tokensOutput: 100,
          costTotalMicrocents: 5_000_000,
          spanCount: 7,
          errorCount: 2,
        }),
        invoice: await seed({
          startMs: 4000,
          durationMs: 700,
          rootSpanName: "invoice-lookup",
          userId: "cid",
          tokensInput: 10,
          tokensOutput: 5,
          costTotalMicrocents: 300,
        }),
        silent: await seed({ startMs: 5000, durationMs: 1, rootSpanName: null }),
      };
      await makeTrace(reader.db, await makeProject(reader.db), { startMs: 6000 });
    });

    test("lists the latest first, each trace with its whole summary", async () => {
      const page = await list(project);

      expect(ids(page.items)).toEqual([
        traces.silent,
        traces.invoice,
        traces.outage,
        traces.greeting,
        traces.refund,
      ]);
      expect(page).toMatchObject({ nextCursor: null, hasMore: false });
      const { startMs, durationMs, ...summary } = refund;
      expect(page.items[4]).toEqual({
        ...summary,
        traceId: traces.refund,
        projectId: project.projectId,
        startTime: isoAt(1000),
        endTime: isoAt(2500),
        durationNs: "1500000000",
        tokensTotal: 235,
      });
      expect(page.items[0]).toMatchObject({ rootSpanName: null, sessionId: null, tags: [], input: null });
    });

    test.each([
      ["durationNs", "desc", ["outage", "refund", "invoice", "greeting", "silent"]],
      ["costTotalMicrocents", "asc", ["silent", "greeting", "invoice", "refund", "outage"]],
      ["spanCount", "desc", ["outage", "refund", "invoice", "greeting", "silent"]],
      ["startTime", "asc", ["refund", "greeting", "outage", "invoice", "silent"]],
      ["endTime", "desc", ["outage", "silent", "invoice", "refund", "greeting"]],
    ] as const)("sorts by %s %s", async (sortBy, sortDirection, expected) => {
      const page = await list(project, { sortBy, sortDirection });
      const byId = expected.map((name) => traces[name]);
      if (sortBy === "spanCount" || sortBy === "costTotalMicrocents") {
        // Ties (equal counts or costs) are broken by trace id, in the same direction.
        const tied = (a: Trace, b: Trace) => a[sortBy] === b[sortBy];
        for (let i = 1; i < page.items.length; i++) {
          const [previous, current] = [page.items[i - 1] as Trace, page.items[i] as Trace];
          if (tied(previous, current)) {
            expect(previous.traceId < current.traceId).toBe(sortDirection === "asc");
          }
        }
        expect(page.items.map((item) => item[sortBy])).toEqual(
          byId.map((id) => page.items.find((item) => item.traceId === id)?.[sortBy]),
        );
      } else {
        expect(ids(page.items)).toEqual(byId);
      }
    });

    test.each([
      ["tokensTotal", "desc"],
      ["costTotalMicrocents", "asc"],
      ["startTime", "desc"],
    ] as const)(
      "pages by %s %s with every trace once, even on tied values",
      async (sortBy, sortDirection) => {
        const whole = await list(project, { sortBy, sortDirection });
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const page: Awaited<ReturnType<typeof list>> = await list(project, {
            sortBy,
            sortDirection,
            limit: 2,
            ...(cursor ? { cursor } : {}),
          });
          expect(page.items.length).toBeLessThanOrEqual(2);
          expect(page.hasMore).toBe(page.nextCursor !== null);
          seen.push(...ids(page.items));
          cursor = page.nextCursor;
        } while (cursor !== null);
        expect(seen).toEqual(ids(whole.items));
        expect(new Set(seen).size).toBe(5);
      },
    );

    test.each([
      [
        "a time range",
        [
          { field: "startTime", op: "gte", value: isoAt(2000) },
          { field: "startTime", op: "lt", value: isoAt(4000) },
        ],
        ["outage", "greeting"],
      ],
      [
        "an exact nanosecond bound",
        [{ field: "startTime", op: "gt", value: "2024-05-01T12:00:02.000000001Z" }],
        ["silent", "invoice", "outage"],
      ],
      [
        "a time in another zone",
        [{ field: "endTime", op: "lte", value: "2024-05-01T14:00:02.500+02:00" }],
        ["greeting", "refund"],
      ],
      ["a duration", [{ field: "durationNs", op: "gt", value: "700000000" }], ["outage", "refund"]],
      [
        "a duration as a number",
        [{ field: "durationNs", op: "lte", value: 100_000_000 }],
        ["silent", "greeting"],
      ],
      ["tokens", [{ field: "tokensTotal", op: "gte", value: 235 }], ["outage", "refund"]],
      ["errors", [{ field: "errorCount", op: "gt", value: 0 }], ["outage", "refund"]],
      ["a session", [{ field: "sessionId", op: "eq", value: "s-1" }], ["greeting", "refund"]],
      [
        "not a session, including traces without one",
        [{ field: "sessionId", op: "neq", value: "s-1" }],
        ["silent", "invoice", "outage"],
      ],
      ["users", [{ field: "userId", op: "in", value: ["bob", "cid"] }], ["invoice", "greeting"]],
      [
        "part of the root's name, in any case",
        [{ field: "rootSpanName", op: "contains", value: "SUPPORT" }],
        ["outage", "refund"],
      ],
      ["a tag", [{ field: "tags", op: "contains", value: "escalated" }], ["outage", "refund"]],
      [
        "any of some models",
        [{ field: "models", op: "containsAny", value: ["gpt-4o-mini", "claude-3-5-sonnet"] }],
        ["outage", "greeting"],
      ],
      [
        "several conditions at once",
        [
          { field: "userId", op: "eq", value: "ann" },
          { field: "costTotalMicrocents", op: "lt", value: 2_000_000 },
        ],
        ["refund"],
      ],
    ] as const)("filters on %s", async (_label, filters, expected) => {
      const page = await list(project, { filters });
      expect(ids(page.items)).toEqual(expected.map((name) => traces[name]));
    });

    test("counts the traces its filters keep exactly, whether the metrics can count them or not", async () => {
      // One model, tag or root span name, errors, and bounds on whole minutes or hours are counted from
      // the metrics the ingest keeps; the rest by reading the traces. Either way the count is exact.
      const counted = await makeProject(reader.db);
      const HOUR = 3_600_000;
      const seeds: TraceSeed[] = [
        { startMs: 0, models: ["gpt-4o"], errorCount: 1, tags: ["beta"], rootSpanName: "support-agent" },
        { startMs: 30_000, models: ["gpt-4o", "gpt-4o-mini"], rootSpanName: "support-agent" },
        { startMs: 61_000, models: ["gpt-4o-mini"], errorCount: 2, tags: ["beta"] },
        { startMs: HOUR - 1, models: ["gpt-4o"], errorCount: 1 },
        { startMs: HOUR, errorCount: 1, rootSpanName: "billing" },
        { startMs: 2 * HOUR + 5_000, models: ["gpt-4o"], tags: ["beta", "eu"] },
      ];
      for (const seed of seeds) await makeTrace(reader.db, counted, seed);
      const errors = { field: "errorCount", op: "gt", value: 0 } as const;
      const model = { field: "models", op: "contains", value: "gpt-4o" } as const;
      const from = (ms: number) => ({ field: "startTime", op: "gte", value: isoAt(ms) }) as const;
      const before = (ms: number) => ({ field: "startTime", op: "lt", value: isoAt(ms) }) as const;
      const cases = [
        [[], 6],
        [[errors], 4],
        [[{ field: "errorCount", op: "gte", value: 1 }], 4],
        [[model], 4],
        [[model, errors], 2],
        [[{ field: "tags", op: "contains", value: "beta" }, errors], 2],
        [[{ field: "rootSpanName", op: "eq", value: "support-agent" }], 2],
        [[from(0), before(HOUR)], 4],
        [[model, errors, from(0), before(HOUR)], 2],
        [[errors, from(60_000), before(2 * HOUR)], 3],
        [[errors, from(1)], 3],
        [[model, { field: "tags", op: "contains", value: "beta" }], 2],
      ] as const;
      for (const [filters, expected] of cases) {
        const page = await list(counted, { filters });
        expect({ filters, total: page.total }).toEqual({ filters, total: expected });
        expect(page.items).toHaveLength(expected);
      }
    });

    test("filters on trace ids", async () => {
      const page = await list(project, {
        filters: [{ field: "traceId", op: "in", value: [traces.refund.toUpperCase(), traces.silent] }],
      });
      expect(ids(page.items)).toEqual([traces.silent, traces.refund]);
    });

    test("refuses a filter on a field that is not filterable, naming it", async () => {
      const error = await failure(list(project, { filters: [{ field: "colour", op: "eq", value: "red" }] }));
      expect(error).toEqual({
        code: "validation_failed",
        message: expect.stringContaining('Unknown filter field "colour"'),
        details: {
          issues: [
            {
              path: "body.filters.0.field",
              code: "invalid_union",
              message: expect.stringMatching(
                /^Unknown filter field "colour"; filter on one of traceId, startTime/,
              ),
            },
          ],
        },
      });
    });

    test.each([
      [
        "an operator the field does not have",
        { field: "tags", op: "gt", value: "a" },
        "body.filters.0.op",
        "is not an operator of tags",
      ],
      [
        "a value of the wrong kind",
        { field: "tokensTotal", op: "gt", value: "many" },
        "body.filters.0.value",
        "",
      ],
      [
        "a time that is not ISO-8601",
        { field: "startTime", op: "gt", value: "yesterday" },
        "body.filters.0.value",
        "ISO-8601",
      ],
      ["an unknown key", { field: "userId", op: "eq", value: "ann", exact: true }, "body.filters.0", ""],
    ])("refuses %s", async (_label, filter, path, message) => {
      const error = await failure(list(project, { filters: [filter] }));
      expect(error.code).toBe("validation_failed");
      expect((error.details as { issues: { path: string; message: string }[] }).issues).toContainEqual(
        expect.objectContaining({ path, message: expect.stringContaining(message) }),
      );
    });

    test("refuses an unknown sort and a bad limit", async () => {
      for (const body of [
        { sortBy: "name" },
        { sortDirection: "up" },
        { limit: 0 },
        { limit: 201 },
        { page: 2 },
      ]) {
        expect(await failure(list(project, body))).toMatchObject({ code: "validation_failed" });
      }
    });

    test("refuses a cursor sent with another sort or other filters, and a made-up one", async () => {
      const { nextCursor } = await list(project, { limit: 2, sortBy: "durationNs" });
      const cursor = nextCursor as string;

      expect(await failure(list(project, { limit: 2, cursor }))).toMatchObject({
        code: "validation_failed",
        message: expect.stringContaining("was issued for sortBy=durationNs"),
      });
      expect(
        await failure(
          list(project, {
            limit: 2,
            cursor,
            sortBy: "durationNs",
            filters: [{ field: "userId", op: "eq", value: "ann" }],
          }),
        ),
      ).toMatchObject({ code: "validation_failed", message: expect.stringContaining("other filters") });
      expect(await failure(list(project, { cursor: "bm90LWEtY3Vyc29y" }))).toMatchObject({
        code: "validation_failed",
      });
    });

    test("answers 404 for an unknown project and for another organisation's", async () => {
      const stranger = await makeProject(reader.db);
      expect(await failure(list({ ...project, projectSlug: "nope" }))).toEqual({
        code: "not_found",
        message: 'Project "nope" not found',
      });
      expect(await failure(list(project, {}, contextOf(stranger.organizationId)))).toMatchObject({
        code: "not_found",
      });
    });

    test("an empty project has no traces", async () => {
      expect(await list(await makeProject(reader.db), {})).toEqual({
        items: [],
        nextCursor: null,
        hasMore: false,
        total: 0,
      });
    });
  });

  describe("getTrace", () => {
    let project: ProjectFixture;
    let traceId: string;

    beforeAll(async () => {
      project = await makeProject(reader.db);
      traceId = await makeTrace(reader.db, project, {
        startMs: 0,
        durationMs: 900,
        spanCount: 2,
        rootSpanName: "agent",
        input: "hi",
        output: "hello",
      });
      await makeSpans(reader.db, project, traceId, [
        {
          spanId: "00000000000000b2",
          parentSpanId: "00000000000000a1",
          name: "chat gpt-4o",
          kind: 3,
          startMs: 100,
          endMs: 800,
          statusCode: 2,
          statusMessage: "rate limited",
          attributes: { "gen_ai.request.model": "gpt-4o", "gen_ai.usage.input_tokens": 12 },
          events: [{ name: "retry", timeUnixNano: nanosAt(400), attributes: { attempt: 2 } }],
          models: ["gpt-4o", "gpt-4o-2024-08-06"],
          tokensInput: 12,
          tokensOutput: 3,
          costMicrocents: 6_000,
          input: [{ role: "user", content: "hi" }],
          output: [{ role: "assistant", content: "hello" }],
        },
        { spanId: "00000000000000a1", name: "agent", startMs: 0, endMs: 900 },
      ]);
    });

    test("returns the trace's summary and every span, by start time", async () => {
      const trace = await get(project, traceId);

      expect(trace).toMatchObject({
        traceId,
        spanCount: 2,
        rootSpanName: "agent",
        input: "hi",
        output: "hello",
      });
      expect(trace.spans).toEqual([
        {
          spanId: "00000000000000a1",
          parentSpanId: null,
          name: "agent",
          kind: "internal",
          startTime: isoAt(0),
          endTime: isoAt(900),
          startTimeUnixNano: nanosAt(0),
          endTimeUnixNano: nanosAt(900),
          durationNs: "900000000",
          status: { code: "unset", message: null },
          attributes: {},
          resourceAttributes: { "service.name": "support-bot" },
          scope: { name: "test-scope", version: "1.0.0" },
          events: [],
          links: [],
          model: null,
          input: null,
          output: null,
          tokensInput: 0,
          tokensOutput: 0,
          costMicrocents: null,
        },
        expect.objectContaining({
          spanId: "00000000000000b2",
          parentSpanId: "00000000000000a1",
          kind: "client",
          durationNs: "700000000",
          status: { code: "error", message: "rate limited" },
          attributes: { "gen_ai.request.model": "gpt-4o", "gen_ai.usage.input_tokens": 12 },
          events: [
            { name: "retry", time: isoAt(400), timeUnixNano: nanosAt(400), attributes: { attempt: 2 } },
          ],
          model: "gpt-4o-2024-08-06",
          input: [{ role: "user", content: "hi" }],
          output: [{ role: "assistant", content: "hello" }],
          tokensInput: 12,
          tokensOutput: 3,
          costMicrocents: 6_000,
        }),
      ]);
    });

    test("finds a trace by its id in upper case too", async () => {
      expect((await get(project, traceId.toUpperCase())).traceId).toBe(traceId);
    });

    test("answers 404 for an unknown trace and for another organisation's", async () => {
      const unknown = newTraceId();
      expect(await failure(get(project, unknown))).toEqual({
        code: "not_found",
        message: `Trace "${unknown}" not found in project "${project.projectSlug}"`,
      });
      const stranger = await makeProject(reader.db);
      expect(await failure(get(project, traceId, contextOf(stranger.organizationId)))).toMatchObject({
        code: "not_found",
      });
    });

    test("refuses an id that is not a trace id", async () => {
      expect(await failure(get(project, "not-a-trace"))).toMatchObject({
        code: "validation_failed",
        details: { issues: [expect.objectContaining({ path: "path.traceId" })] },
      });
    });
  });
});
