import { type RawBuilder, sql } from "kysely";

/** The PostgreSQL type of one column of `unnestRows`. */
export type UnnestType = "text" | "int" | "bigint" | "float8" | "boolean" | "jsonb";

/**
 * Many rows as one relation: `unnest($1::text[], $2::int[], …) AS alias("a", "b", …)`, one array
 * parameter per column. A batch statement joins its rows to a table through this. Unlike
 * `jsonb_to_recordset`, which the planner always guesses at 100 rows, `unnest` tells the planner how
 * many rows there are, so a join on a dozen keys takes a dozen index lookups instead of scanning the
 * table. (A prepared statement's generic plan, which cannot see the arrays, assumes 10 rows: still
 * index lookups.)
 *
 * A jsonb column's values are JSON values: `undefined` is SQL NULL, `null` the JSON null.
 *
 * `sizeHidden`: each array goes in as a sub-select, whose length the planner cannot see even when it
 * plans for the values at hand, so it assumes 10 rows in every plan. For a prepared statement run
 * with batches of any size: PostgreSQL plans it again at every call as long as plans made for the
 * values at hand (custom plans) look cheaper than the one plan made for any values (generic), which
 * they do for small arrays; with the size hidden they cost the same, and it keeps the generic plan.
 */
export function unnestRows<C extends string>(
  alias: string,
  columns: Readonly<Record<C, UnnestType>>,
  rows: readonly Readonly<Record<C, unknown>>[],
  options: { sizeHidden?: boolean } = {},
): RawBuilder<unknown> {
  const names = Object.keys(columns) as C[];
  const arrays = names.map((name) => {
    const type = columns[name];
    const values = rows.map((row) => {
      const value = row[name];
      if (type !== "jsonb") return value ?? null;
      return value === undefined ? null : JSON.stringify(value);
    });
    const array = sql`${values}::${sql.raw(type)}[]`;
    return options.sizeHidden ? sql`(SELECT ${array})` : array;
  });
  return sql`unnest(${sql.join(arrays)}) AS ${sql.id(alias)}(${sql.join(names.map((name) => sql.id(name)))})`;
}
