import { type RawBuilder, sql } from "kysely";

/**
 * A JSON value as a jsonb parameter. Always serialised here: `pg` would turn a JS array into a
 * PostgreSQL array and pass a bare string as text, neither of which is JSON.
 */
export const jsonb = (value: unknown): RawBuilder<string> =>
  sql<string>`${JSON.stringify(value ?? null)}::jsonb`;
