import { type Kysely, sql } from "kysely";

/**
 * `jsonb_merge(patch)`: the objects it aggregates merged as `||` merges two, later keys winning.
 * Over a window ordered by arrival it gives each edit of a row the patch that all the row's edits
 * so far make together, which lets one statement apply a batch of edits.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE AGGREGATE jsonb_merge(jsonb) (SFUNC = jsonb_concat, STYPE = jsonb)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP AGGREGATE IF EXISTS jsonb_merge(jsonb)`.execute(db);
}
