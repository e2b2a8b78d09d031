import { type Kysely, sql } from "kysely";

/**
 * The idempotency records of key creations kept the answer with its token in clear (for 48 hours), so
 * that a replay gave the token again. A replay now answers without it (docs/decisions/0002), and the
 * records written before that lose their tokens here, as a record written now never has one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const withheld = sql`'{"token": null, "tokenAlreadyShown": true}'::jsonb`;
  await sql`
    UPDATE idempotency_records SET response = response || ${withheld}
    WHERE operation_id = 'createApiKey' AND jsonb_typeof(response -> 'token') = 'string'
  `.execute(db);
  await sql`
    UPDATE idempotency_records
    SET response = jsonb_set(response, '{apiKey}', (response -> 'apiKey') || ${withheld})
    WHERE operation_id = 'createOrganization' AND jsonb_typeof(response -> 'apiKey' -> 'token') = 'string'
  `.execute(db);
}

/** A token withheld is gone: there is nothing to put back. */
export async function down(): Promise<void> {}
