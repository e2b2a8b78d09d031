import { connect, createServer, type Server, type Socket } from "node:net";
import { realInfra } from "@svc/testing";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "./connect";
import { DatabaseUnusableError, openDatabaseFromEnv, redactUrl } from "./from-env";
import { createScratchDatabase } from "./testing";

const infra = realInfra();
const PASSWORD = "pw-that-must-not-be-printed";

/** A logger that remembers what it was told. */
function recordingLog() {
  const lines: { level: "warn" | "error"; obj: object; msg: string }[] = [];
  return {
    lines,
    warn: (obj: object, msg: string) => void lines.push({ level: "warn", obj, msg }),
    error: (obj: object, msg: string) => void lines.push({ level: "error", obj, msg }),
  };
}

/** PostgreSQL's ErrorResponse message, as a server sends it when it refuses a connection. */
function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`);
  const header = Buffer.alloc(5);
  header.write("E", 0);
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
}

/**
 * A stand-in for PostgreSQL on `port`: each connection in turn gets the next answer of `refusals`
 * (a SQLSTATE with its message, sent once the client has said hello), and once they are used up
 * it is piped to the real server at `upstream`.
 */
async function fakePostgres(
  port: number,
  refusals: { code: string; message: string }[],
  upstream?: URL,
): Promise<Server> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    const refusal = refusals.shift();
    if (refusal) {
      socket.once("data", () => socket.end(errorResponse(refusal.code, refusal.message)));
      return;
    }
    if (!upstream) return void socket.destroy();
    const real = connect(Number(upstream.port || 5432), upstream.hostname);
    socket.pipe(real).pipe(socket);
    real.once("error", () => socket.destroy());
    socket.once("error", () => real.destroy());
    real.once("close", () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const close = server.close.bind(server);
  return Object.assign(server, {
    close: (callback?: (error?: Error) => void) => {
      for (const socket of sockets) socket.destroy();
      return close(callback);
    },
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const urlAt = (port: number, database = "svc") =>
  `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${database}`;

describe("redactUrl", () => {
  it("masks the password wherever the URL carries one, and shows nothing it cannot parse", () => {
    expect(redactUrl("postgres://svc:hunter2@db:5432/svc")).toBe("postgres://svc:***@db:5432/svc");
    expect(redactUrl("postgres://svc@db/svc?password=hunter2&sslmode=require")).toBe(
      "postgres://svc@db/svc?password=***&sslmode=require",
    );
    expect(redactUrl("host=db password=hunter2")).toBe("not shown: not a URL");
  });
});

describe("openDatabaseFromEnv gives up on what waiting cannot fix", () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  it.each([
    [
      "28P01",
      'password authentication failed for user "postgres"',
      "correct the user or password in DATABASE_URL",
    ],
    ["28000", 'role "postgres" does not exist', "correct the user in DATABASE_URL"],
    ["3D000", 'database "svc" does not exist', "create it (createdb -h 127.0.0.1 -p PORT -U postgres svc)"],
  ])(
    "%s: fails at once with a message naming DATABASE_URL, never its password",
    async (code, reason, advice) => {
      const port = await freePort();
      server = await fakePostgres(port, [{ code, message: reason }]);
      const log = recordingLog();

      const failure = await openDatabaseFromEnv({ DATABASE_URL: urlAt(port), DB_POOL_SIZE: 2 }, log).catch(
        (error: unknown) => error,
      );

      expect(failure).toBeInstanceOf(DatabaseUnusableError);
      const message = (failure as Error).message;
      expect(message).toContain(
        `DATABASE_URL (postgres://postgres:***@127.0.0.1:${port}/svc) cannot be used: ${reason}`,
      );
      expect(message).toContain(advice.replace("PORT", String(port)));
      expect(log.lines).toEqual([{ level: "error", obj: { code }, msg: message }]);
      expect(JSON.stringify(log.lines)).not.toContain(PASSWORD);
    },
  );

  it("waits while PostgreSQL refuses connections or is starting up, then opens and migrates", async () => {
    if (!infra) return;
    const scratch = await createScratchDatabase(infra.databaseUrl, "fromenv");
    const port = await freePort();
    const log = recordingLog();
    let handle: DatabaseHandle | undefined;
    try {
      const database = new URL(scratch.url).pathname.slice(1);
      const opening = openDatabaseFromEnv({ DATABASE_URL: urlAt(port, database), DB_POOL_SIZE: 2 }, log);
      // Nothing listens at first: connection refused.
      await expect.poll(() => log.lines.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      // Then a server that is still starting up, then the real one.
      server = await fakePostgres(
        port,
        [{ code: "57P03", message: "the database system is starting up" }],
        new URL(infra.databaseUrl),
      );
      handle = await opening;

      const tables = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'datasets'`.execute(
        handle.db,
      );
      expect(tables.rows[0]?.n).toBe(1);
      expect(log.lines.length).toBeGreaterThanOrEqual(3);
      expect(log.lines.every((line) => line.level === "warn" && line.msg === "waiting for PostgreSQL")).toBe(
        true,
      );
      expect(log.lines.map((line) => (line.obj as { err: { code?: string } }).err.code)).toContain("57P03");
    } finally {
      await handle?.close();
      await scratch.drop();
    }
  });

  it("fails at once on a database that does not exist on a real server", async () => {
    if (!infra) return;
    const url = new URL(infra.databaseUrl);
    url.password = PASSWORD;
    url.pathname = "/svc_no_such_database";
    const log = recordingLog();
    const started = Date.now();

    await expect(openDatabaseFromEnv({ DATABASE_URL: url.toString(), DB_POOL_SIZE: 2 }, log)).rejects.toThrow(
      'cannot be used: database "svc_no_such_database" does not exist',
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(log.lines.map((line) => line.level)).toEqual(["error"]);
    expect(JSON.stringify(log.lines)).not.toContain(PASSWORD);
  });
});
