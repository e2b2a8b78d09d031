import { existsSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import setup from "./global-setup";
import { findLocalInfra, STANDARD_LOCAL } from "./local-infra";

/** A TCP server on a free port that writes `greeting` to every connection. */
async function greeter(greeting: string): Promise<{ url: string; server: Server }> {
  const server = createServer((socket) => socket.end(greeting));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `nats://127.0.0.1:${port}`, server };
}

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

describe("PostgreSQL and NATS on their standard local ports", () => {
  // The machines this suite runs on have both there; elsewhere this one test has nothing to find.
  it.runIf(process.env.SVC_REQUIRE_INFRA === "1")("are found where they answer", async () => {
    expect(await findLocalInfra()).toEqual({ found: true, ...STANDARD_LOCAL });
  });

  it.runIf(process.env.SVC_REQUIRE_INFRA === "1")(
    "are what a run without DATABASE_URL and NATS_URL uses, instead of skipping",
    async () => {
      const saved = {
        DATABASE_URL: process.env.DATABASE_URL,
        NATS_URL: process.env.NATS_URL,
        SVC_TEST_PGLITE_TEMPLATE: process.env.SVC_TEST_PGLITE_TEMPLATE,
      };
      delete process.env.DATABASE_URL;
      delete process.env.NATS_URL;
      try {
        const teardown = await setup();
        expect(process.env.DATABASE_URL).toBe(STANDARD_LOCAL.databaseUrl);
        expect(process.env.NATS_URL).toBe(STANDARD_LOCAL.natsUrl);
        // No container was started: what the teardown undoes is the PGlite template the setup made.
        const template = process.env.SVC_TEST_PGLITE_TEMPLATE ?? "";
        expect(existsSync(template)).toBe(true);
        await teardown?.();
        expect(existsSync(template)).toBe(false);
        expect(process.env.DATABASE_URL).toBe(STANDARD_LOCAL.databaseUrl);
      } finally {
        for (const [name, value] of Object.entries(saved)) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
    },
  );

  it("are not taken for a server that does not speak NATS, nor a closed port", async () => {
    const impostor = await greeter("HTTP/1.1 400 Bad Request\r\n\r\n");
    servers.push(impostor.server);
    const outcome = await findLocalInfra(
      { databaseUrl: "postgres://postgres@127.0.0.1:1/postgres", natsUrl: impostor.url },
      1000,
    );
    expect(outcome.found).toBe(false);
    expect(outcome.found ? "" : outcome.reason).toMatch(
      /^no answer from PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:1\/postgres \(.*ECONNREFUSED.*\) or NATS at nats:\/\/127\.0\.0\.1:\d+ \(not a NATS server\)$/,
    );
  });

  it("give up within the probe's time when nothing greets", async () => {
    const silent = createServer(() => undefined);
    servers.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    const started = Date.now();
    const outcome = await findLocalInfra(
      { databaseUrl: STANDARD_LOCAL.databaseUrl, natsUrl: `nats://127.0.0.1:${port}` },
      300,
    );
    expect(outcome.found ? "" : outcome.reason).toContain("no greeting within 300 ms");
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
