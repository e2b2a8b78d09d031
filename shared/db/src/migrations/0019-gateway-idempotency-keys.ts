import { type Kysely, sql } from "kysely";

/**
 * The gateway gives every dataset write that comes without an Idempotency-Key one of its own, kept for
 * minutes (docs/decisions/0033). This index holds only those records, by age, so that forgetting
 * them reads nothing of the clients' keys, kept for 48 hours. The prefix is `GATEWAY_KEY_PREFIX`,
 * written out: a landed migration never changes with the code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX idempotency_records_gateway_created ON idempotency_records (created_at)
    WHERE key LIKE 'gateway %'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS idempotency_records_gateway_created`.execute(db);
}
