import { parseJson } from "./cells";

/**
 * The grid's filters, kept in the address so that a filtered view can be shared and survives a
 * reload: `q` (cell text), `missing` and `present` (column identifiers, comma-separated), `where`
 * (repeated, `<column>[.<path>]=<JSON>`) and `sort=asc`.
 */
export interface ListFilters {
  search: string;
  sortDirection: "asc" | "desc";
  missing: string[];
  present: string[];
  where: string[];
}

const list = (value: string | null): string[] =>
  value === null ? [] : value.split(",").filter((item) => item.trim() !== "");

export function filtersFrom(params: URLSearchParams): ListFilters {
  return {
    search: params.get("q") ?? "",
    sortDirection: params.get("sort") === "asc" ? "asc" : "desc",
    missing: list(params.get("missing")),
    present: list(params.get("present")),
    where: params.getAll("where").filter((item) => item.includes("=")),
  };
}

/** The address's parameters with these filters; the others (the row open, the version) are kept. */
export function withFilters(params: URLSearchParams, filters: ListFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of ["q", "sort", "missing", "present", "where"]) next.delete(name);
  if (filters.search !== "") next.set("q", filters.search);
  if (filters.sortDirection === "asc") next.set("sort", "asc");
  if (filters.missing.length > 0) next.set("missing", unique(filters.missing).join(","));
  if (filters.present.length > 0) next.set("present", unique(filters.present).join(","));
  for (const where of unique(filters.where)) next.append("where", where);
  return next;
}

export const isFiltered = (filters: ListFilters): boolean =>
  filters.search.trim() !== "" ||
  filters.missing.length > 0 ||
  filters.present.length > 0 ||
  filters.where.length > 0;

/** A `where` filter as the API takes it: the cell (or a path inside it) equal to a JSON value. */
export function whereOf(column: string, path: string, json: string): string {
  const at = path.trim() === "" ? column : `${column}.${path.trim()}`;
  return `${at}=${json.trim()}`;
}

/**
 * How a filter's value is typed: as text (what is typed is the string compared, no quotes needed) or
 * as JSON, the explicit way to mean a number, true, false, null or an object.
 */
export type FilterValueKind = "text" | "json";

/**
 * A filter value as typed, as the JSON the API compares. Text is the string typed; a text already in
 * quotes, as JSON writes a string, is that string (the quotes are not part of it).
 */
export function filterValueJson(
  typed: string,
  kind: FilterValueKind,
): { ok: true; json: string } | { ok: false; problem: string } {
  if (kind === "text") {
    const quoted = /^\s*".*"\s*$/s.test(typed) ? parseJson(typed.trim()) : undefined;
    if (quoted?.ok && typeof quoted.value === "string")
      return { ok: true, json: JSON.stringify(quoted.value) };
    return { ok: true, json: JSON.stringify(typed) };
  }
  const parsed = parseJson(typed);
  if (parsed.ok) return { ok: true, json: typed.trim() };
  return {
    ok: false,
    problem: `The value is not JSON: ${parsed.problem.message}. Choose Text to compare with the text as typed.`,
  };
}

/** A `where` value (JSON) as a chip says it, with how it was understood: `"prod" (text)`, `4 (number)`. */
export function describeFilterValue(json: string): string {
  const parsed = parseJson(json);
  if (!parsed.ok) return json;
  const value = parsed.value;
  if (typeof value === "string") return `${JSON.stringify(value)} (text)`;
  if (value === null) return "null";
  if (typeof value === "object") return `${json} (JSON)`;
  return `${json} (${typeof value})`;
}

const unique = (items: readonly string[]) => [...new Set(items)];
