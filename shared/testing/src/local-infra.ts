import { connect } from "node:net";
import pg from "pg";

/**
 * PostgreSQL and NATS where a developer's machine (and this project's CI machines) run them: their
 * standard ports on the loopback address, PostgreSQL with the `postgres` role and trust
 * authentication. Tried when the environment names neither, before any container is started.
 */
export const STANDARD_LOCAL = {
  databaseUrl: "postgres://postgres@127.0.0.1:5432/postgres",
  natsUrl: "nats://127.0.0.1:4222",
};

export type LocalOutcome =
  | { found: true; databaseUrl: string; natsUrl: string }
  | { found: false; reason: string };

/** Whether both answer as what they are: a query for PostgreSQL, the INFO greeting for NATS. */
export async function findLocalInfra(
  candidate: { databaseUrl: string; natsUrl: string } = STANDARD_LOCAL,
  probeMs = 2000,
): Promise<LocalOutcome> {
  const [database, nats] = await Promise.all([
    answersQuery(candidate.databaseUrl, probeMs),
    greetsAsNats(candidate.natsUrl, probeMs),
  ]);
  const missing = [
    database !== true && `PostgreSQL at ${redacted(candidate.databaseUrl)} (${database})`,
    nats !== true && `NATS at ${candidate.natsUrl} (${nats})`,
  ].filter(Boolean);
  if (missing.length > 0) return { found: false, reason: `no answer from ${missing.join(" or ")}` };
  return { found: true, ...candidate };
}

/** True, or why not. */
async function answersQuery(url: string, probeMs: number): Promise<true | string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: probeMs });
  // A refused connection is reported by connect(); this only keeps a late error from being thrown.
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** True when the server's first bytes are NATS's `INFO {…}` greeting, or why not. */
function greetsAsNats(url: string, probeMs: number): Promise<true | string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 4222) });
    let received = "";
    const done = (outcome: true | string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => done(`no greeting within ${probeMs} ms`), probeMs);
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      if (received.length >= 5) done(received.startsWith("INFO ") ? true : "not a NATS server");
    });
    socket.on("error", (error) => done(error.message));
  });
}

const redacted = (url: string): string => url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
