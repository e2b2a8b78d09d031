import type { BuiltinField } from "@svc/contracts";
import { type RawBuilder, type SqlBool, sql } from "kysely";
import { storedColumnOf } from "./revisions";

/*
 * The filters of a row listing, as SQL over a row table aliased `r` (the live rows or their
 * revisions): the reader lists with them and the writer copies the rows they select.
 */

/** A case-insensitive text search over the cells named here, and only those. */
export interface CellSearch {
  text: string;
  fields: readonly BuiltinField[];
  customIdentifiers: readonly string[];
}

/** Cells that must be unset (absent or JSON null) or set: built-in fields and custom identifiers. */
export interface CellPresence {
  missing: readonly CellRef[];
  present: readonly CellRef[];
  /** Cells, or values at JSON paths inside them, that must equal a JSON value. */
  equal?: readonly { cell: CellRef; path: readonly (string | number)[]; value: unknown }[];
}

export type CellRef = { kind: "builtin"; field: BuiltinField } | { kind: "custom"; identifier: string };

/**
 * Matches the text of the searched cells, nested JSON included, case-insensitively. A cell's text is
 * its JSON, so the search text is written the way JSON writes it (quotes and backslashes escaped)
 * before `%`, `_` and `\` are escaped for LIKE.
 *
 * Each test is written exactly as a column of the revisions' trigram index (`row_revisions_search`,
 * docs/decisions/0046-row-search.md) is, so that where the index exists the planner can answer a rare
 * term from it: a cell's `::text`, and for custom cells the text of all of a row's custom values
 * (`jsonb_path_query_array(custom, '$.*')`), which holds the text of each value, so it lets through
 * every row the exact test of the searched custom cells would, and that test then decides.
 */
export function matchesSearch(search: CellSearch | undefined): RawBuilder<SqlBool> {
  if (search === undefined) return sql<SqlBool>`true`;
  const pattern = likePattern(search.text);
  const tests = search.fields.map(
    (field) => sql<SqlBool>`${sql.ref(`r.${storedColumnOf[field]}`)}::text ILIKE ${pattern} ESCAPE '\\'`,
  );
  if (search.customIdentifiers.length > 0) {
    tests.push(sql<SqlBool>`(${customValuesText} ILIKE ${pattern} ESCAPE '\\' AND EXISTS (
      SELECT 1 FROM jsonb_each(r.custom) AS cell
      WHERE cell.key IN (${sql.join(search.customIdentifiers)})
        AND cell.value::text ILIKE ${pattern} ESCAPE '\\'
    ))`);
  }
  return tests.length > 0 ? sql<SqlBool>`(${sql.join(tests, sql` OR `)})` : sql<SqlBool>`false`;
}

/** The text of a row's custom values, keys left out: the trigram index's last column, as it spells it. */
const customValuesText = sql`jsonb_path_query_array(r.custom, '$.*')::text`;

/**
 * A cell is missing when it is SQL NULL or JSON null. Written as `r.expected_output IS NULL OR
 * r.expected_output = 'null'` for built-in cells, the very predicate of the partial index that serves
 * "missing expected output" on the current rows (migration 0011; cell-rules.test.ts checks that the
 * planner uses it).
 */
export function matchesPresence(presence: CellPresence | undefined): RawBuilder<SqlBool> {
  if (presence === undefined) return sql<SqlBool>`true`;
  const unset = (cell: CellRef) =>
    cell.kind === "builtin"
      ? sql<SqlBool>`(${sql.ref(`r.${storedColumnOf[cell.field]}`)} IS NULL OR ${sql.ref(`r.${storedColumnOf[cell.field]}`)} = 'null'::jsonb)`
      : sql<SqlBool>`(r.custom -> ${cell.identifier} IS NULL OR r.custom -> ${cell.identifier} = 'null'::jsonb)`;
  const cellOf = (cell: CellRef) =>
    cell.kind === "builtin"
      ? sql`${sql.ref(`r.${storedColumnOf[cell.field]}`)}`
      : sql`(r.custom -> ${cell.identifier})`;
  const tests = [
    ...presence.missing.map(unset),
    ...presence.present.map((cell) => sql<SqlBool>`NOT ${unset(cell)}`),
    // jsonb equality: 1 and 1.0 are equal, keys compare whatever their order.
    ...(presence.equal ?? []).map(({ cell, path, value }) =>
      path.length === 0
        ? sql<SqlBool>`${cellOf(cell)} = ${JSON.stringify(value)}::jsonb`
        : sql<SqlBool>`${cellOf(cell)} #> ${path.map(String)}::text[] = ${JSON.stringify(value)}::jsonb`,
    ),
  ];
  return tests.length > 0 ? sql<SqlBool>`(${sql.join(tests, sql` AND `)})` : sql<SqlBool>`true`;
}

export function likePattern(text: string): string {
  const asJson = JSON.stringify(text).slice(1, -1);
  return `%${asJson.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
