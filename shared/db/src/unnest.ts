import { type RawBuilder, sql } from "kysely";

/** The PostgreSQL type of one column of `unnestRows`. */
export type UnnestType = "text" | "int" | "bigint" | "boolean" | "jsonb";

/**
 * Many rows as one relation: `unnest($1::text[], $2::int[], …) AS alias("a", "b", …)`, one array
 * parameter per column. A batch statement joins its rows to a table through this. Unlike
 * `jsonb_to_recordset`, which the planner always guesses at 100 rows, `unnest` tells the planner how
 * many rows there are, so a join on a dozen keys takes a dozen index lookups instead of scanning the
 * table. (A prepared statement's generic plan, which cannot see the arrays, assumes 10 rows: still
 * index lookups.)
 *
 * A jsonb column's values are JSON values: `undefined` is SQL NULL, `null` the JSON null.
 */
export function unnestRows<C extends string>(
  alias: string,
  columns: Readonly<Record<C, UnnestType>>,
  rows: readonly Readonly<Record<C, unknown>>[],
): RawBuilder<unknown> {
  const names = Object.keys(columns) as C[];
  const arrays = names.map((name) => {
    const type = columns[name];
    const values = rows.map((row) => {
      const value = row[name];
      if (type !== "jsonb") return value ?? null;
      return value === undefined ? null : JSON.stringify(value);
    });
    return sql`${values}::${sql.raw(type)}[]`;
  });
  return sql`unnest(${sql.join(arrays)}) AS ${sql.id(alias)}(${sql.join(names.map((name) => sql.id(name)))})`;
}
