import { type RawBuilder, sql } from "kysely";

/**
 * A timestamp as UTC text with microseconds. A cursor carries this instead of a JavaScript Date,
 * which would round to milliseconds and could skip or repeat a row on the next page.
 */
export function exactTimestamp(column: string): RawBuilder<string> {
  return sql<string>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

export const EXACT_TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
