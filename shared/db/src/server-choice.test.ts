import { createServer } from "node:net";
import { realInfra } from "@svc/testing";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "./connect";
import { isDependencyUnavailable } from "./dependency-errors";
import { databaseEnvSchema, redactUrl } from "./from-env";
import { NoServerAccepted, parseServerList } from "./server-choice";

const infra = realInfra();

/** A loopback port nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("parseServerList", () => {
  it("gives a URL of one server back whole, any server accepted", () => {
    const url = "postgres://svc:pw@db:5432/svc?sslmode=require";
    expect(parseServerList(url)).toEqual({ urls: [url], target: "any" });
  });

  it("splits libpq's several hosts into a URL each, keeping user, database and parameters", () => {
    expect(
      parseServerList(
        "postgresql://svc:p%40ss@10.0.0.1:5432,10.0.0.2:5433/data?target_session_attrs=read-write&application_name=w",
      ),
    ).toEqual({
      urls: [
        "postgresql://svc:p%40ss@10.0.0.1:5432/data?application_name=w",
        "postgresql://svc:p%40ss@10.0.0.2:5433/data?application_name=w",
      ],
      target: "read-write",
    });
  });

  it("refuses a target libpq does not know and an empty host, naming them and not the password", () => {
    expect(() => parseServerList("postgres://u:secret@a,b/db?target_session_attrs=writable")).toThrow(
      /target_session_attrs is "writable"; it must be one of any, read-write/,
    );
    expect(() => parseServerList("postgres://u:secret@a,,b/db")).toThrow(/empty host/);
    const parsed = databaseEnvSchema.safeParse({
      DATABASE_URL: "postgres://u:secret@a,b/db?target_session_attrs=x",
    });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toMatch(/target_session_attrs/);
    expect(JSON.stringify(parsed.error?.issues)).not.toMatch(/secret/);
  });

  it("is masked like any URL when printed", () => {
    expect(redactUrl("postgres://svc:hunter2@a:5432,b:5433/svc?target_session_attrs=read-write")).toBe(
      "postgres://svc:***@a:5432,b:5433/svc?target_session_attrs=read-write",
    );
    expect(redactUrl("postgres://svc@a,b/svc?password=hunter2")).toBe("postgres://svc@a,b/svc?password=***");
  });
});

describe.runIf(infra)("several servers, one chosen by what it is", () => {
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  /** The test server's URL with `hosts` in place of its host, and `target`. */
  function listUrl(hosts: string[], target: string): string {
    const url = new URL(infra?.databaseUrl as string);
    const server = `${url.hostname}:${url.port || 5432}`;
    const list = hosts.map((h) => (h === "server" ? server : h)).join(",");
    return `postgres://${url.username ? `${url.username}@` : ""}${list}${url.pathname}?target_session_attrs=${target}`;
  }

  it("passes over a server that refuses connections to the next that is read-write", async () => {
    const down = await closedPort();
    handle = await openDatabase({ url: listUrl([`127.0.0.1:${down}`, "server"], "read-write") });
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(handle.db);
    expect(rows).toEqual([{ one: 1 }]);
  });

  it("answers a dependency unavailable (08001) when no server is of the kind asked for", async () => {
    const down = await closedPort();
    // The test server is a primary: neither a standby nor read-only.
    for (const target of ["standby", "read-only"]) {
      handle = await openDatabase({ url: listUrl([`127.0.0.1:${down}`, "server"], target) });
      const error = await sql`SELECT 1`.execute(handle.db).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(NoServerAccepted);
      expect((error as NoServerAccepted).message).toBe(
        `none of the 2 database servers accepted a ${target} connection`,
      );
      expect(isDependencyUnavailable(error)).toBe(true);
      await handle.close();
      handle = undefined;
    }
  });

  it("takes a primary when no standby is there, for prefer-standby", async () => {
    handle = await openDatabase({ url: listUrl(["server"], "prefer-standby") });
    const { rows } = await sql<{ standby: boolean }>`SELECT pg_is_in_recovery() AS standby`.execute(
      handle.db,
    );
    expect(rows).toEqual([{ standby: false }]);
  });
});
