import { createConnection, createServer, type Server, type Socket } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "./connect";
import { CommitOutcomeUnknown, isDependencyUnavailable } from "./dependency-errors";
import { createScratchDatabase } from "./testing";

const databaseUrl = process.env.DATABASE_URL;

/**
 * A proxy to PostgreSQL that breaks the connection on the first message from the client holding
 * `text`: after the server got it (`after`: the server then acts on it) or before (`before`: it never
 * arrives).
 */
class BreakingProxy {
  private readonly sockets = new Set<Socket>();
  private trap: { text: Buffer; when: "before" | "after" } | undefined;
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<BreakingProxy> {
    let proxy: BreakingProxy | undefined;
    const server = createServer((client) => proxy?.pipe(client, createConnection(target)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    proxy = new BreakingProxy(server, typeof address === "object" && address ? address.port : 0);
    return proxy;
  }

  breakOn(text: string, when: "before" | "after"): void {
    this.trap = { text: Buffer.from(text), when };
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private pipe(client: Socket, upstream: Socket): void {
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    let trapped = false;
    upstream.on("data", (chunk: Buffer) => {
      if (!trapped) client.write(chunk);
    });
    client.on("data", (chunk: Buffer) => {
      const trap = this.trap;
      if (!trap || !chunk.includes(trap.text)) {
        upstream.write(chunk);
        return;
      }
      this.trap = undefined;
      trapped = true;
      if (trap.when === "before") {
        client.destroy();
        return;
      }
      // The server gets the message and acts on it; its answer never comes back.
      upstream.write(chunk);
      void delay(200).then(() => client.destroy());
    });
  }
}

describe.runIf(databaseUrl)("a connection that breaks while a change is applied (PostgreSQL)", () => {
  let proxy: BreakingProxy;
  let direct: DatabaseHandle;
  let proxied: DatabaseHandle;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const scratch = await createScratchDatabase(databaseUrl as string, "outcomes");
    drop = scratch.drop;
    direct = await openDatabase({ url: scratch.url, poolSize: 1 });
    await sql`CREATE TABLE notes (id int PRIMARY KEY)`.execute(direct.db);
    const url = new URL(scratch.url);
    proxy = await BreakingProxy.start({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    proxied = await openDatabase({ url: url.toString(), poolSize: 2 });
  });
  afterEach(async () => {
    await sql`TRUNCATE notes`.execute(direct.db);
  });
  afterAll(async () => {
    await proxied?.close();
    await direct?.close();
    await proxy?.close();
    await drop?.();
  });

  const stored = async () =>
    (await sql<{ id: number }>`SELECT id FROM notes ORDER BY id`.execute(direct.db)).rows.map((r) => r.id);
  const failureOf = (work: Promise<unknown>) =>
    work.then(
      () => {
        throw new Error("expected the work to fail");
      },
      (error: unknown) => error,
    );

  it("says the outcome is unknown when the COMMIT was sent, and it was indeed applied", async () => {
    proxy.breakOn("commit", "after");
    const error = await failureOf(
      proxied.db.transaction().execute(async (trx) => {
        await sql`INSERT INTO notes VALUES (1)`.execute(trx);
      }),
    );
    expect(error).toBeInstanceOf(CommitOutcomeUnknown);
    expect(await stored()).toEqual([1]);
  });

  it("says nothing was written when the connection broke inside the transaction, before COMMIT", async () => {
    proxy.breakOn("INSERT INTO notes", "after");
    const error = await failureOf(
      proxied.db.transaction().execute(async (trx) => {
        await sql`INSERT INTO notes VALUES (2)`.execute(trx);
      }),
    );
    expect(error).not.toBeInstanceOf(CommitOutcomeUnknown);
    expect(isDependencyUnavailable(error)).toBe(true);
    expect(await stored()).toEqual([]);
  });

  it("says the outcome is unknown for a write sent on its own, which is its own transaction", async () => {
    proxy.breakOn("INSERT INTO notes", "after");
    const error = await failureOf(sql`INSERT INTO notes VALUES (3)`.execute(proxied.db));
    expect(error).toBeInstanceOf(CommitOutcomeUnknown);
    expect(await stored()).toEqual([3]);
  });

  it("keeps a read's broken connection a plain dependency failure, prepared statements included", async () => {
    proxy.breakOn("SELECT count", "before");
    const error = await failureOf(sql`/* svc:prepare */\nSELECT count(*) FROM notes`.execute(proxied.db));
    expect(error).not.toBeInstanceOf(CommitOutcomeUnknown);
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it("works on afterwards with a new connection", async () => {
    await proxied.db.transaction().execute(async (trx) => {
      await sql`INSERT INTO notes VALUES (4)`.execute(trx);
    });
    expect(await stored()).toEqual([4]);
  });
});
