import { type Kysely, sql } from "kysely";
import { prepared } from "./prepared";
import type { Database } from "./schema";
import { type UnnestType, unnestRows } from "./unnest";

/**
 * The columns in which a span and its trace's summary both keep the trace's facts (`TraceFacts`), with
 * the type each travels as in `unnestRows`.
 */
export const TRACE_FACT_COLUMNS = {
  session_id: "text",
  user_id: "text",
  tags: "jsonb",
  models: "jsonb",
  tokens_input: "bigint",
  tokens_output: "bigint",
} as const satisfies Record<string, UnnestType>;

/**
 * Writes rows of one project into `table`, each replacing the stored row of the same key (`touched`
 * set to now): one statement of one array a column (`unnestRows`), whatever the number of rows, so
 * that its text never changes and it is prepared once per connection. A VALUES list of a parameter a
 * cell costs more to build, send and parse than the rows cost to store.
 */
export async function upsertRows<C extends string>(
  db: Kysely<Database>,
  into: { table: "spans" | "traces"; key: readonly C[]; touched: "received_at" | "updated_at" },
  columns: Readonly<Record<C, UnnestType>>,
  projectId: string,
  rows: readonly Readonly<Record<C, unknown>>[],
): Promise<void> {
  if (rows.length === 0) return;
  const names = Object.keys(columns) as C[];
  const replaced = names.filter((name) => !into.key.includes(name));
  await sql`${prepared}
    INSERT INTO ${sql.table(into.table)} (project_id, ${sql.join(names.map((name) => sql.id(name)))})
    SELECT ${projectId}, ${sql.join(names.map((name) => sql.ref(`s.${name}`)))}
    FROM ${unnestRows("s", columns, rows, { sizeHidden: true })}
    ON CONFLICT (project_id, ${sql.join(into.key.map((name) => sql.id(name)))}) DO UPDATE SET
      ${sql.join(replaced.map((name) => sql`${sql.id(name)} = ${sql.ref(`excluded.${name}`)}`))},
      ${sql.id(into.touched)} = now()`.execute(db);
}
