import type { Database } from "@svc/db";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from "kysely";

/** A result row a recorded call is answered with: whatever columns the repository function reads. */
export type AnswerRow = Record<string, unknown>;

/**
 * A Kysely instance that compiles for PostgreSQL exactly as the services' instances do (same adapter
 * and compiler, no plugins) and sends nothing anywhere: every statement is recorded, and answered
 * with the next of the rows it was given (no rows once they run out). Transactions are accepted and
 * leave no statement, as `BEGIN` and `COMMIT` say nothing about a repository's SQL.
 */
export class Recorder {
  readonly statements: CompiledQuery[] = [];
  private answers: AnswerRow[][] = [];
  readonly db: Kysely<Database>;

  constructor() {
    const connection: DatabaseConnection = {
      executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        this.statements.push(query);
        return { rows: (this.answers.shift() ?? []) as R[] };
      },
      // biome-ignore lint/correctness/useYield: no repository function snapshotted here streams.
      streamQuery: async function* () {
        throw new Error("the SQL snapshots do not record streamed statements");
      },
    };
    const driver: Driver = {
      init: async () => {},
      acquireConnection: async () => connection,
      beginTransaction: async () => {},
      commitTransaction: async () => {},
      rollbackTransaction: async () => {},
      releaseConnection: async () => {},
      destroy: async () => {},
    };
    const dialect: Dialect = {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createQueryCompiler: () => new PostgresQueryCompiler(),
      createIntrospector: (db) => new PostgresIntrospector(db),
    };
    this.db = new Kysely<Database>({ dialect });
  }

  /** Runs `call`, answering its statements with `answers` in turn, and returns what it sent. */
  async record(
    call: (db: Kysely<Database>) => Promise<unknown>,
    answers: readonly AnswerRow[][] = [],
  ): Promise<{ statements: CompiledQuery[]; error: unknown }> {
    this.statements.length = 0;
    this.answers = answers.map((rows) => [...rows]);
    let error: unknown;
    try {
      await call(this.db);
    } catch (thrown) {
      error = thrown ?? new Error("threw undefined");
    }
    return { statements: [...this.statements], error };
  }
}
