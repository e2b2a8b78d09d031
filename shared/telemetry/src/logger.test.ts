import { context, ROOT_CONTEXT, TraceFlags, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "./logger";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    service: "test",
    level: "info",
    destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
  });
  return { logger, lines };
}

describe("createLogger", () => {
  it("writes one JSON object per line with the service, the level and the message", () => {
    const { logger, lines } = capture();
    logger.info({ requestId: "r-1" }, "request");
    expect(lines).toEqual([
      expect.objectContaining({ service: "test", level: 30, msg: "request", requestId: "r-1" }),
    ]);
    expect(lines[0]).not.toHaveProperty("trace_id");
  });

  it("redacts credentials in headers, however the header is spelled, and secret fields", () => {
    const { logger, lines } = capture();
    logger.info(
      {
        req: { headers: { authorization: "Bearer svc_live_1", cookie: "session=2", host: "example" } },
        headers: { Authorization: "Bearer svc_live_3" },
        Authorization: "Bearer svc_live_4",
        token: "svc_live_5",
        client: { clientSecret: "s6", refreshToken: "t7", name: "cli" },
        apiKey: { token: "svc_live_8", id: "k8" },
      },
      "incoming",
    );
    const line = lines[0];
    expect(line).toMatchObject({
      req: { headers: { authorization: "[redacted]", cookie: "[redacted]", host: "example" } },
      headers: { Authorization: "[redacted]" },
      Authorization: "[redacted]",
      token: "[redacted]",
      client: { clientSecret: "[redacted]", refreshToken: "[redacted]", name: "cli" },
      apiKey: "[redacted]",
    });
    expect(JSON.stringify(line)).not.toMatch(/svc_live|s6|t7/);
  });

  it("redacts secret fields at any depth and in arrays, leaving the caller's object alone", () => {
    const { logger, lines } = capture();
    const grant = { tokens: { token: "svc_live_9", accessToken: "at_10" }, id: "g1" };
    logger.info(
      {
        session: { refresh_token: "rt_11" },
        grant,
        issued: [{ apiKey: { token: "svc_live_12", id: "k12" } }, { client: { client_secret: "cs_13" } }],
        deep: { a: { b: { c: { d: { token: "svc_live_14", adminToken: "adm_15", tokensTotal: 3 } } } } },
        headers: { "set-cookie": ["sid=16"], "x-request-id": "r-1" },
      },
      "nested",
    );
    const line = lines[0];
    expect(line).toMatchObject({
      session: { refresh_token: "[redacted]" },
      grant: { tokens: { token: "[redacted]", accessToken: "[redacted]" }, id: "g1" },
      issued: [{ apiKey: "[redacted]" }, { client: { client_secret: "[redacted]" } }],
      deep: { a: { b: { c: { d: { token: "[redacted]", adminToken: "[redacted]", tokensTotal: 3 } } } } },
      headers: { "set-cookie": "[redacted]", "x-request-id": "r-1" },
    });
    expect(JSON.stringify(line)).not.toMatch(/svc_live|at_10|rt_11|cs_13|adm_15|sid=16/);
    // The caller's own object is left as it was.
    expect(grant.tokens.token).toBe("svc_live_9");
  });

  it("leaves errors to pino's serializer, with their message and stack", () => {
    const { logger, lines } = capture();
    logger.error({ err: new Error("boom") }, "failed");
    expect(lines[0]).toMatchObject({ err: { type: "Error", message: "boom", stack: expect.any(String) } });
  });

  it("censors a secret an error carries, under err or any other key, and in its cause", () => {
    const { logger, lines } = capture();
    const cause = Object.assign(new Error("upstream refused"), { apiKey: "svc_live_20" });
    const error = Object.assign(new TypeError("bad grant", { cause }), {
      token: "svc_live_21",
      detail: { grant: { refreshToken: "rt_22" }, status: 400 },
    });
    logger.error({ err: error }, "failed");
    logger.warn({ failure: error, requestId: "r-2" }, "failed again");
    logger.error(error);
    for (const line of lines) expect(JSON.stringify(line)).not.toMatch(/svc_live|rt_22/);
    const serialized = {
      type: "TypeError",
      message: "bad grant: upstream refused",
      stack: expect.stringContaining("bad grant"),
      token: "[redacted]",
      detail: { grant: { refreshToken: "[redacted]" }, status: 400 },
    };
    expect(lines[0]).toMatchObject({ msg: "failed", err: serialized });
    expect(lines[1]).toMatchObject({ msg: "failed again", failure: serialized, requestId: "r-2" });
    expect(lines[2]).toMatchObject({ err: serialized });
  });

  it("censors a child logger's bindings at any depth, and a grandchild's", () => {
    const { logger, lines } = capture();
    const child = logger.child({
      requestId: "r-3",
      client: { name: "cli", credentials: { token: "svc_live_23" } },
    });
    child.info("bound");
    child.child({ apiKey: "svc_live_24" }).info("bound twice");
    expect(lines[0]).toMatchObject({
      msg: "bound",
      requestId: "r-3",
      client: { name: "cli", credentials: { token: "[redacted]" } },
    });
    expect(lines[1]).toMatchObject({ msg: "bound twice", requestId: "r-3", apiKey: "[redacted]" });
    expect(JSON.stringify(lines)).not.toMatch(/svc_live/);
  });

  describe("inside a trace", () => {
    beforeAll(() => {
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    });
    afterAll(() => {
      context.disable();
    });

    it("adds the active span's trace id, span id and flags", () => {
      const { logger, lines } = capture();
      const span = trace.wrapSpanContext({
        traceId: "0af7651916cd43dd8448eb211c80319c",
        spanId: "b7ad6b7169203331",
        traceFlags: TraceFlags.SAMPLED,
      });
      context.with(trace.setSpan(ROOT_CONTEXT, span), () => logger.info("inside"));
      logger.info("outside");
      expect(lines[0]).toMatchObject({
        msg: "inside",
        trace_id: "0af7651916cd43dd8448eb211c80319c",
        span_id: "b7ad6b7169203331",
        trace_flags: "01",
      });
      expect(lines[1]).not.toHaveProperty("trace_id");
    });
  });
});
