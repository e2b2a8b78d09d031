import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { send } from "./send";
import { directTransport } from "./transport";

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A local server answering each request with the next of `statuses`, recording what it got. */
async function scripted(statuses: [number, Record<string, string>?][]) {
  const seen: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    seen.push(request);
    const [status, headers] = statuses[Math.min(seen.length - 1, statuses.length - 1)] ?? [200];
    response.writeHead(status, { "content-type": "application/json", ...headers });
    response.end(JSON.stringify({ status }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/x`, seen };
}

const transport = () => directTransport({});
const sleeps: number[] = [];
const sleep = async (ms: number) => {
  sleeps.push(ms);
};

describe("send", () => {
  it("retries a PATCH after 503 with the same Idempotency-Key", async () => {
    const { url, seen } = await scripted([[503], [200]]);
    const response = await send(
      { method: "PATCH", url, headers: { "idempotency-key": "key-1" }, body: "{}" },
      { transport: transport(), timeoutMs: 10_000, debug: undefined, sleep },
    );
    expect(response.status).toBe(200);
    expect(seen.map((request) => request.headers["idempotency-key"])).toEqual(["key-1", "key-1"]);
  });

  it("waits as long as Retry-After says on 429", async () => {
    sleeps.length = 0;
    const { url } = await scripted([[429, { "retry-after": "2" }], [200]]);
    await send(
      { method: "GET", url, headers: {} },
      { transport: transport(), timeoutMs: 10_000, debug: undefined, sleep },
    );
    expect(sleeps[0]).toBeGreaterThanOrEqual(2000);
  });

  it("does not retry a client error, and gives up after the last attempt", async () => {
    const bad = await scripted([[400]]);
    expect(
      (
        await send(
          { method: "GET", url: bad.url, headers: {} },
          { transport: transport(), timeoutMs: 5000, debug: undefined, sleep },
        )
      ).status,
    ).toBe(400);
    expect(bad.seen).toHaveLength(1);
    const down = await scripted([[502]]);
    const response = await send(
      { method: "GET", url: down.url, headers: {} },
      { transport: transport(), timeoutMs: 5000, debug: undefined, sleep, attempts: 3 },
    );
    expect(response.status).toBe(502);
    expect(down.seen).toHaveLength(3);
  });

  it("returns a Retry-After that does not fit in the time left instead of waiting for it", async () => {
    const { url, seen } = await scripted([[429, { "retry-after": "120" }], [200]]);
    const response = await send(
      { method: "GET", url, headers: {} },
      { transport: transport(), timeoutMs: 2000, debug: undefined, sleep },
    );
    expect(response.status).toBe(429);
    expect(seen).toHaveLength(1);
  });
});
