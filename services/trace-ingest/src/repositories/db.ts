import { jsonb, type TraceFacts } from "@svc/db";
import { type RawBuilder, sql } from "kysely";

/** Splits rows into statements small enough for PostgreSQL's 65,535 parameters. */
export function chunks<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < rows.length; start += size) out.push(rows.slice(start, start + size));
  return out;
}

/** The trace facts of a span or of a trace's summary, in the columns both tables keep them in. */
export function traceFactValues(facts: TraceFacts) {
  return {
    session_id: facts.sessionId,
    user_id: facts.userId,
    tags: jsonb(facts.tags),
    models: jsonb(facts.models),
    tokens_input: facts.tokensInput,
    tokens_output: facts.tokensOutput,
  };
}

/** What a value an insert writes holds: a parameter's own type, or that of the SQL wrapping it. */
type Written<V> = V extends RawBuilder<infer T> ? T : V;

/** Each column of `Row` but those of `Key`, set to the value the insert proposed for it. */
type ExcludedValues<Row, Key extends keyof Row> = {
  [C in Exclude<keyof Row, Key>]: RawBuilder<Written<Row[C]>>;
};

/**
 * The SET of an upsert whose proposed row replaces the stored one: each column the insert writes, but
 * those of the conflict key, takes its `excluded` value. It is read off the inserted rows, so that a
 * column added to the insert cannot be left out of the update.
 */
export function replacingAllBut<Row extends object, Key extends keyof Row & string>(
  key: readonly Key[],
  rows: readonly Row[],
): ExcludedValues<Row, Key> {
  const columns = Object.keys(rows[0] ?? {}).filter((column) => !(key as readonly string[]).includes(column));
  return Object.fromEntries(
    columns.map((column) => [column, sql.ref(`excluded.${column}`)]),
  ) as ExcludedValues<Row, Key>;
}
