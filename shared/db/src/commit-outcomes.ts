import type { PostgresPool, PostgresPoolClient } from "kysely";
import { CommitOutcomeUnknown, isDependencyUnavailable } from "./dependency-errors";

/** A statement's first word, past blanks and comments (a prepared statement's marker is one). */
const FIRST_WORD = /^(?:\s+|\/\*[\s\S]*?\*\/|--[^\n]*\n)*([a-z]+)/i;
/** Statements that never write: their failure leaves nothing applied, in a transaction or not. */
const READS = new Set(["select", "show", "set", "values", "explain"]);
const OPENS = new Set(["begin", "start"]);
const CLOSES = new Set(["commit", "rollback", "end", "abort"]);
const COMMITS = new Set(["commit", "end"]);

const firstWord = (text: string) => FIRST_WORD.exec(text)?.[1]?.toLowerCase() ?? "";

/**
 * The pool Kysely uses, with a broken connection told apart by when it broke: inside a transaction,
 * before its `COMMIT`, the server rolls the transaction back, so the failure says nothing was written
 * (a dependency unavailable); during the `COMMIT`, or during a statement that may write sent on its
 * own (each is its own transaction), the change may have been applied, and the failure becomes
 * `CommitOutcomeUnknown`.
 */
export function commitAwarePool(pool: PostgresPool): PostgresPool {
  return {
    connect: async () => commitAwareClient(await pool.connect()),
    end: () => pool.end(),
  };
}

function commitAwareClient(client: PostgresPoolClient): PostgresPoolClient {
  let inTransaction = false;
  let commitUnknown = false;
  return {
    query: ((text: unknown, values?: readonly unknown[]) => {
      // Kysely rolls back after a failed COMMIT; on the broken connection that would fail too, and
      // its error would take the place of the one that says the outcome is unknown.
      if (commitUnknown && typeof text === "string" && CLOSES.has(firstWord(text))) {
        commitUnknown = false;
        return Promise.resolve({ command: "ROLLBACK", rowCount: null, rows: [] });
      }
      const result = (client.query as (...args: unknown[]) => unknown)(text, values);
      // Cursors (streamed reads) are not promises, and never write.
      if (typeof text !== "string" || !isPromise(result)) return result;
      const word = firstWord(text);
      const committing = COMMITS.has(word);
      const mayApply = committing || (!inTransaction && !READS.has(word) && !OPENS.has(word));
      if (OPENS.has(word)) inTransaction = true;
      else if (CLOSES.has(word)) inTransaction = false;
      return result.catch((error: unknown) => {
        if (!mayApply || !isDependencyUnavailable(error)) throw error;
        commitUnknown = committing;
        throw new CommitOutcomeUnknown(error);
      });
    }) as PostgresPoolClient["query"],
    release: () => {
      inTransaction = false;
      commitUnknown = false;
      client.release();
    },
  };
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}
