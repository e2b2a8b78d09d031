import { afterEach, describe, expect, it } from "vitest";
import { type ScriptedServer, type Step, startScriptedServer } from "../../testing/scripted-server.js";
import { Client, type ClientOptions, SvcError } from "../src/index.js";
import { parseRetryAfter } from "../src/transport.js";

const edit = { versionId: "v0000000000000000000000001", version: 7 };
const unavailable: Step = {
  status: 503,
  body: { error: "A service is not answering", code: "service_unavailable", requestId: "req_1" },
};

let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(steps: Step[], options: ClientOptions = {}): Promise<Client> {
  server = await startScriptedServer(steps);
  return new Client({ apiKey: "svc_test", baseUrl: server.baseUrl, ...options });
}

function requests() {
  if (!server) throw new Error("no server");
  return server.requests;
}

async function captureError(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("the call succeeded but was expected to fail");
}

describe("retries", () => {
  it("retries a 503 and sends the same Idempotency-Key on every attempt of one call", async () => {
    const client = await clientFor([unavailable, unavailable, { status: 200, body: edit }]);
    const result = await client.datasets.updateRow("p", "d", "r1", { expectedOutput: "4" });
    expect(result).toEqual(edit);
    expect(requests()).toHaveLength(3);
    const keys = requests().map((request) => request.headers["idempotency-key"]);
    expect(keys[0]).toMatch(/^svc_idem_[0-9a-f]{32}$/);
    expect(new Set(keys).size).toBe(1);
    expect(requests().map((request) => request.body)).toEqual(Array(3).fill('{"expectedOutput":"4"}'));
    expect(requests()[0]).toMatchObject({ method: "PATCH", url: "/v1/projects/p/datasets/d/rows/r1" });
    expect(requests()[0]?.headers.authorization).toBe("Bearer svc_test");
  });

  it("uses a new Idempotency-Key for each logical call, and the caller's own when given", async () => {
    const client = await clientFor([{ status: 200, body: edit }]);
    await client.datasets.updateRow("p", "d", "r1", { input: 1 });
    await client.datasets.updateRow("p", "d", "r1", { input: 1 });
    await client.datasets.updateRow("p", "d", "r1", { input: 1 }, { idempotencyKey: "mine-1" });
    const keys = requests().map((request) => request.headers["idempotency-key"]);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBe("mine-1");
  });

  it("sends no Idempotency-Key on a read", async () => {
    const client = await clientFor([{ status: 200, body: { items: [], nextCursor: null, hasMore: false } }]);
    await client.projects.list();
    expect(requests()[0]?.headers["idempotency-key"]).toBeUndefined();
  });

  it("gives up after maxRetries and throws the last error", async () => {
    const client = await clientFor([unavailable], { maxRetries: 1 });
    const error = await captureError(client.projects.get("p"));
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({ status: 503, code: "service_unavailable", requestId: "req_1" });
    expect(requests()).toHaveLength(2);
  });

  it("honours Retry-After on a 429", async () => {
    const client = await clientFor([
      {
        status: 429,
        headers: { "retry-after": "1" },
        body: { error: "slow down", code: "rate_limited", requestId: "r" },
      },
      { status: 200, body: { id: "p" } },
    ]);
    await client.projects.get("p");
    const [first, second] = requests();
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it("retries 408, 502 and 504, and a dropped connection", async () => {
    const client = await clientFor(
      [
        { dropConnection: true },
        { status: 408, headers: { "retry-after": "0" } },
        { status: 502, headers: { "retry-after": "0" } },
        { status: 504, headers: { "retry-after": "0" } },
        { status: 200, body: { id: "p" } },
      ],
      { maxRetries: 4 },
    );
    await expect(client.projects.get("p")).resolves.toEqual({ id: "p" });
    expect(requests()).toHaveLength(5);
  });

  it("does not retry a 400, 404, 409 or 500", async () => {
    for (const [status, code] of [
      [400, "validation_failed"],
      [404, "not_found"],
      [409, "conflict"],
      [500, "internal_error"],
    ] as const) {
      const client = await clientFor([{ status, body: { error: "no", code, requestId: "x" } }]);
      const error = await captureError(client.projects.create({ name: "n" }));
      expect(error).toMatchObject({ status, code });
      expect(requests()).toHaveLength(1);
      await server?.close();
      server = undefined;
    }
  });

  it("reports an answer that is not an API error body with its status", async () => {
    const client = await clientFor([{ status: 502, body: "<html>Bad gateway</html>" }], { maxRetries: 0 });
    const error = await captureError(client.projects.get("p"));
    expect(error).toMatchObject({ status: 502, code: "http_502", requestId: "req_scripted" });
    expect((error as SvcError).message).toContain("Bad gateway");
  });

  it("reports a connection error after its retries", async () => {
    const client = new Client({ baseUrl: "http://127.0.0.1:9", maxRetries: 1 });
    const error = await captureError(client.projects.list());
    expect(error).toMatchObject({ status: 0, code: "connection_error" });
  });
});

describe("timeouts and cancellation", () => {
  it("fails an attempt that takes longer than timeoutMs with code timeout", async () => {
    const client = await clientFor([{ hang: true }], { timeoutMs: 300, maxRetries: 0 });
    const started = Date.now();
    const error = await captureError(client.projects.list());
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({ status: 0, code: "timeout" });
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(3_000);
  });

  it("retries a timed-out attempt with the same Idempotency-Key", async () => {
    const client = await clientFor([{ hang: true }, { status: 201, body: { id: "p" } }], {
      timeoutMs: 5_000,
    });
    await expect(client.projects.create({ name: "n" }, { timeoutMs: 200 })).resolves.toEqual({ id: "p" });
    expect(requests()).toHaveLength(2);
    expect(requests()[0]?.headers["idempotency-key"]).toBe(requests()[1]?.headers["idempotency-key"]);
  });

  it("stops a call in flight when its signal aborts", async () => {
    const client = await clientFor([{ hang: true }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const error = await captureError(client.projects.list(undefined, { signal: controller.signal }));
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe("AbortError");
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(requests()).toHaveLength(1);
  });

  it("stops waiting between retries when the signal aborts", async () => {
    const client = await clientFor([{ ...unavailable, headers: { "retry-after": "30" } }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("caller gave up")), 200);
    const error = await captureError(client.projects.get("p", { signal: controller.signal }));
    expect((error as Error).message).toBe("caller gave up");
    expect(requests()).toHaveLength(1);
  });

  it("does not send a request when the signal is already aborted", async () => {
    const client = await clientFor([{ status: 200, body: {} }]);
    const error = await captureError(client.projects.get("p", { signal: AbortSignal.abort() }));
    expect((error as Error).name).toBe("AbortError");
    expect(requests()).toHaveLength(0);
  });
});

describe("requests", () => {
  it("encodes path parameters and serialises the query, leaving out what is undefined", async () => {
    const client = await clientFor([{ status: 200, body: { columns: [] } }]);
    await client.datasets.listColumns("p", "a/b?c", { includeRemoved: true });
    await client.datasets.listRows("p", "d", { limit: 10, search: "two words" });
    expect(requests().map((request) => request.url)).toEqual([
      "/v1/projects/p/datasets/a%2Fb%3Fc/columns?includeRemoved=true",
      "/v1/projects/p/datasets/d/rows?limit=10&search=two+words",
    ]);
  });

  it("sends X-Request-Id and extra headers, and lets them replace the client's", async () => {
    const client = await clientFor([{ status: 200, body: {} }]);
    await client.account.get({
      requestId: "req-mine",
      headers: { Authorization: "Bearer other", "X-Extra": "1" },
    });
    expect(requests()[0]?.headers).toMatchObject({
      "x-request-id": "req-mine",
      authorization: "Bearer other",
      "x-extra": "1",
    });
  });

  it("resolves a 204 to undefined", async () => {
    const client = await clientFor([{ status: 204 }]);
    await expect(client.apiKeys.delete("k")).resolves.toBeUndefined();
    expect(requests()[0]).toMatchObject({ method: "DELETE", url: "/v1/api-keys/k", body: "" });
  });

  it("rejects settings that cannot work", () => {
    expect(() => new Client({ timeoutMs: 0 })).toThrow(RangeError);
    expect(() => new Client({ maxRetries: -1 })).toThrow(RangeError);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfter("2")).toBe(2_000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
    const inFiveSeconds = new Date(Date.now() + 5_000).toUTCString();
    expect(parseRetryAfter(inFiveSeconds)).toBeGreaterThan(3_000);
  });
});

describe("reading one's own writes", () => {
  it("sends the version a write to a dataset answered as X-Svc-Min-Version on that dataset's reads only", async () => {
    const client = await clientFor([
      { status: 200, body: { items: [], nextCursor: null, hasMore: false } },
      { status: 200, body: edit },
      { status: 200, body: { items: [], nextCursor: null, hasMore: false } },
      { status: 200, body: { ...edit, version: 5 } },
      { status: 200, body: { items: [], nextCursor: null, hasMore: false } },
      { status: 200, body: { items: [], nextCursor: null, hasMore: false } },
    ]);
    await client.datasets.listRows("p", "d");
    await client.datasets.updateRow("p", "d", "r1", { expectedOutput: "4" });
    await client.datasets.listRows("p", "d");
    // An answer about an older version (another edit finished late) does not lower what was written.
    await client.datasets.updateRow("p", "d", "r2", { expectedOutput: "5" });
    await client.datasets.listRows("p", "d");
    await client.datasets.listRows("p", "other");
    expect(requests().map((request) => request.headers["x-svc-min-version"])).toEqual([
      undefined,
      undefined,
      "7",
      undefined,
      "7",
      undefined,
    ]);
  });
});
