import pg from "pg";

/**
 * libpq's `target_session_attrs`: which of several servers a connection may be made to. `read-write`
 * is what writers are pointed at during a failover: the old primary refuses, the standby is passed
 * over until it is promoted, then taken.
 */
const TARGETS = ["any", "read-write", "read-only", "primary", "standby", "prefer-standby"] as const;
export type TargetSessionAttrs = (typeof TARGETS)[number];

/** A PostgreSQL URL naming one server or several, as libpq takes it. */
export interface ServerList {
  /** One URL per server, in the order given, each without `target_session_attrs`. */
  urls: string[];
  target: TargetSessionAttrs;
}

const URL_PARTS = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/i;

/**
 * Splits libpq's several-host form, `postgres://user@h1:5432,h2:5433/db?target_session_attrs=read-write`,
 * into one URL per server (the driver takes one host). A URL of one server comes back whole. Throws
 * an error that names what is wrong, never the password.
 */
export function parseServerList(url: string): ServerList {
  const parts = URL_PARTS.exec(url);
  if (!parts) return { urls: [url], target: "any" };
  const [, scheme = "", userinfo = "", hostList = "", rest = ""] = parts;
  const queryAt = rest.indexOf("?");
  const path = queryAt < 0 ? rest : rest.slice(0, queryAt);
  const query = new URLSearchParams(queryAt < 0 ? "" : rest.slice(queryAt + 1));
  const target = query.get("target_session_attrs") ?? "any";
  if (!isTarget(target)) {
    throw new Error(
      `DATABASE_URL's target_session_attrs is "${target}"; it must be one of ${TARGETS.join(", ")}`,
    );
  }
  query.delete("target_session_attrs");
  const hosts = hostList.split(",");
  if (hosts.some((host) => host === "") && hosts.length > 1) {
    throw new Error("DATABASE_URL names an empty host in its list of hosts (two commas, or one at an end)");
  }
  const search = query.size > 0 ? `?${query.toString()}` : "";
  return { urls: hosts.map((host) => `${scheme}${userinfo}${host}${path}${search}`), target };
}

function isTarget(value: string): value is TargetSessionAttrs {
  return (TARGETS as readonly string[]).includes(value);
}

/** What a server said it is, asked once per connection. */
interface ServerState {
  standby: boolean;
  readOnly: boolean;
}

function accepts(target: TargetSessionAttrs, state: ServerState, pass: "preferred" | "any"): boolean {
  switch (target) {
    case "any":
      return true;
    case "read-write":
      return !state.readOnly;
    case "read-only":
      return state.readOnly;
    case "primary":
      return !state.standby;
    case "standby":
      return state.standby;
    case "prefer-standby":
      return pass === "any" || state.standby;
  }
}

/**
 * No server of the list is the kind asked for (all down, or none writable while a standby is being
 * promoted). SQLSTATE 08001, as libpq reports it: a dependency unavailable, answered 503, which
 * clients retry.
 */
export class NoServerAccepted extends Error {
  readonly code = "08001";
  constructor(target: TargetSessionAttrs, servers: number, cause: unknown) {
    super(`none of the ${servers} database servers accepted a ${target} connection`, { cause });
    this.name = "NoServerAccepted";
  }
}

/** The part of `pg.Pool` the rest of `shared/db` uses. */
export interface ConnectionSource {
  connect(): Promise<pg.PoolClient>;
  end(): Promise<void>;
}

/**
 * A pool per server of `list`, and connections taken from the first server, in the list's order
 * starting with the one that served last, that is of the kind `list.target` asks for: libpq's
 * several hosts with `target_session_attrs`, which the `pg` driver lacks. Each new connection is asked
 * once what its server is; one of the wrong kind is closed. With one server and no target, it is
 * that server's pool itself.
 */
export function serverPools(list: ServerList, options: pg.PoolConfig, onError: (error: Error) => void) {
  const pools = list.urls.map((url) => {
    const pool = new pg.Pool({ ...options, connectionString: url });
    // A server restart kills idle connections; the pool replaces them, the process must not die.
    pool.on("error", onError);
    // A connection that dies while checked out (between two queries of a transaction) emits "error"
    // on its client, which the pool does not listen to then: without this, the process would crash.
    // The query in progress fails (and is reported) on its own; the pool discards the client when it
    // comes back; an idle client's error reaches the pool's listener above.
    pool.on("connect", (client) => client.on("error", () => undefined));
    return pool;
  });
  const only = pools[0] as pg.Pool;
  if (pools.length === 1 && list.target === "any") return only;

  const checked = new WeakSet<pg.PoolClient>();
  let current = 0;
  const end = async () => {
    await Promise.all(pools.map((pool) => pool.end()));
  };
  const tryServer = async (index: number, pass: "preferred" | "any"): Promise<pg.PoolClient> => {
    const client = await (pools[index] as pg.Pool).connect();
    if (checked.has(client)) return client;
    try {
      const { rows } = await client.query<ServerState>(
        "SELECT pg_is_in_recovery() AS standby, current_setting('transaction_read_only') = 'on' AS \"readOnly\"",
      );
      if (rows[0] && accepts(list.target, rows[0], pass)) {
        checked.add(client);
        return client;
      }
    } catch (error) {
      client.release(true);
      throw error;
    }
    client.release(true);
    throw new Error(`database server ${index + 1} is not ${list.target}`);
  };
  const connect = async (): Promise<pg.PoolClient> => {
    let lastError: unknown;
    const passes = list.target === "prefer-standby" ? (["preferred", "any"] as const) : (["any"] as const);
    for (const pass of passes) {
      for (let i = 0; i < pools.length; i++) {
        const index = (current + i) % pools.length;
        try {
          const client = await tryServer(index, pass);
          current = index;
          return client;
        } catch (error) {
          lastError = error;
        }
      }
    }
    throw new NoServerAccepted(list.target, pools.length, lastError);
  };
  return { connect, end } satisfies ConnectionSource;
}
