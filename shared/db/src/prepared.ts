import { createHash } from "node:crypto";
import type { PostgresPool, PostgresPoolClient } from "kysely";
import { sql } from "kysely";
import type pg from "pg";
import type { ConnectionSource } from "./server-choice";

const MARKER = "/* svc:prepare */";

/**
 * Put first in a statement whose text never changes (its values all travel as parameters) and that
 * runs often: PostgreSQL then parses it once per connection and may keep its plan, instead of parsing
 * and planning it at every call. A batch edit's statements spend more time being planned than run.
 * Statements whose text varies (an IN list of variable length) must not be marked: every variant
 * would stay prepared on the connection.
 */
export const prepared = sql.raw(`${MARKER}\n`);

/**
 * The pool Kysely uses, with statements marked `prepared` sent as named prepared statements (named by
 * a hash of their text). `pg` prepares each name once per connection and reuses it after that.
 */
export function preparingPool(pool: ConnectionSource, enabled = true): PostgresPool {
  if (!enabled) {
    // Behind a pooler in transaction mode (PgBouncer before 1.21) a statement prepared on one server
    // connection is not there on the next: every statement is sent unnamed, parsed at each call.
    return { connect: () => pool.connect(), end: () => pool.end() };
  }
  return {
    connect: async () => preparingClient(await pool.connect()),
    end: () => pool.end(),
  };
}

function preparingClient(client: pg.PoolClient): PostgresPoolClient {
  return {
    query: ((text: unknown, values?: readonly unknown[]) => {
      if (typeof text === "string" && text.startsWith(MARKER)) {
        return client.query({ name: statementName(text), text, values: values as unknown[] });
      }
      // Cursors (streamed queries) and everything unmarked go through as they are.
      return (client.query as (...args: unknown[]) => unknown)(text, values);
    }) as PostgresPoolClient["query"],
    release: () => client.release(),
  };
}

const names = new Map<string, string>();

function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `svc_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`;
    names.set(text, name);
  }
  return name;
}
