import type { Database } from "@svc/db";
import type { Kysely, Transaction } from "kysely";

/**
 * Runs `work` on one consistent snapshot of the database: a dataset's current version and its rows
 * are read as of the same instant, even while writers commit.
 */
export function inSnapshot<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().setIsolationLevel("repeatable read").setAccessMode("read only").execute(work);
}

export { EXACT_TIMESTAMP_PATTERN, exactTimestamp } from "@svc/db";
