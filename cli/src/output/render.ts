import type { Format } from "../spec/local-commands";

export interface RenderOptions {
  format: Exclude<Format, "raw" | "http" | "parquet">;
  /** Standard output is a terminal: tables may be truncated to its width. */
  tty: boolean;
  color: boolean;
  columns: number;
}

/**
 * The records of a list response: an array itself, a page's `items`, or the one array of an object
 * such as `{"columns": [...]}`. Undefined for anything else.
 */
export function recordsOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isObject(value)) return undefined;
  if (Array.isArray(value.items)) return value.items;
  const keys = Object.keys(value);
  const only = keys.length === 1 && keys[0] !== undefined ? value[keys[0]] : undefined;
  return Array.isArray(only) ? only : undefined;
}

export async function render(value: unknown, options: RenderOptions): Promise<string> {
  switch (options.format) {
    case "json":
      return `${JSON.stringify(value, null, 2)}\n`;
    case "jsonl":
      return jsonLines(value);
    case "yaml": {
      const { stringify } = await import("yaml");
      return stringify(value);
    }
    case "csv":
      return csv(value);
    case "table":
      return table(value, options);
  }
}

export function jsonLines(value: unknown): string {
  const records = recordsOf(value) ?? [value];
  return records.map((record) => `${JSON.stringify(record)}\n`).join("");
}

/** Scalars as text; nested values as compact JSON; null as nothing. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

interface Grid {
  header: string[];
  rows: string[][];
}

function grid(value: unknown): Grid | undefined {
  const records = recordsOf(value) ?? (isObject(value) ? [value] : undefined);
  if (!records) return undefined;
  if (records.length > 0 && records.every((record) => !isObject(record))) {
    return { header: ["value"], rows: records.map((record) => [cellText(record)]) };
  }
  const header: string[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    if (!isObject(record)) continue;
    for (const key of Object.keys(record)) {
      if (!seen.has(key)) {
        seen.add(key);
        header.push(key);
      }
    }
  }
  const rows = records.map((record) =>
    header.map((key) => (isObject(record) ? cellText(record[key]) : cellText(record))),
  );
  return { header, rows };
}

/** RFC 4180: CRLF line ends, fields quoted when they hold a comma, a quote or a line break. */
export function csv(value: unknown): string {
  const data = grid(value);
  if (!data) return `${csvField(cellText(value))}\r\n`;
  if (data.header.length === 0) return "";
  return [data.header, ...data.rows].map((row) => `${row.map(csvField).join(",")}\r\n`).join("");
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function table(value: unknown, options: Pick<RenderOptions, "tty" | "color" | "columns">): string {
  const data = grid(value);
  if (!data) {
    return value === undefined ? "" : `${cellText(value)}\n`;
  }
  if (data.header.length === 0 || data.rows.length === 0) return "";
  // One pass over the cells for their text and width, then one for the lines: a table of 10,000
  // rows must not make the answer wait.
  const header = data.header;
  const rows = data.rows.map((row) => row.map(oneLine));
  const cellWidths = rows.map((row) => row.map(width));
  let widths = header.map(width);
  for (const row of cellWidths) {
    for (let index = 0; index < row.length; index++) {
      const cell = row[index] ?? 0;
      if (cell > (widths[index] ?? 0)) widths[index] = cell;
    }
  }
  if (options.tty && lineWidth(widths) > options.columns) {
    // One record wider than the line: one field a line, rather than its values cut to fit.
    if (rows.length === 1) return record(header, rows[0] ?? [], options);
    widths = fitWidths(widths, header, options.columns);
  }
  const last = header.length - 1;
  const line = (cells: string[], sizes: number[]) => {
    let text = "";
    for (let index = 0; index <= last; index++) {
      const target = widths[index] ?? 0;
      const cell = cells[index] ?? "";
      const size = sizes[index] ?? 0;
      if (index > 0) text += "  ";
      if (size > target) text += truncate(cell, target);
      else text += index === last ? cell : cell + " ".repeat(target - size);
    }
    return text.trimEnd();
  };
  const title = line(header, header.map(width));
  const out = [options.color ? `\u001b[1m${title}\u001b[0m` : title];
  for (let index = 0; index < rows.length; index++)
    out.push(line(rows[index] ?? [], cellWidths[index] ?? []));
  return `${out.join("\n")}\n`;
}

/** One record as a field a line, `name  value`, the names in bold with colour, each value cut to the line. */
function record(
  header: string[],
  cells: string[],
  options: Pick<RenderOptions, "color" | "columns">,
): string {
  const nameWidth = Math.max(...header.map(width));
  const room = Math.max(4, options.columns - nameWidth - 2);
  const lines = header.map((name, index) => {
    const label = name + " ".repeat(nameWidth - width(name));
    const cell = cells[index] ?? "";
    const value = width(cell) > room ? truncate(cell, room) : cell;
    return `${options.color ? `\u001b[1m${label}\u001b[0m` : label}  ${value}`.trimEnd();
  });
  return `${lines.join("\n")}\n`;
}

const lineWidth = (widths: number[]): number =>
  widths.reduce((sum, w) => sum + w, 0) + 2 * (widths.length - 1);

const oneLine = (text: string): string => (/[\r\n\t]/.test(text) ? text.replace(/[\r\n\t]+/g, " ") : text);

/** A title of identifiers (`id`, `rowId`, `slug`…), what people copy from a table. */
const identifies = (title: string): boolean => title === "id" || title === "slug" || /[a-z]Id$/.test(title);

/**
 * Shrinks the widest columns until the table fits the terminal, keeping each at least its title:
 * first all but the records' own identifiers (a first column such as `id` or `rowId`), then, if the
 * line is still too long, those too.
 */
function fitWidths(natural: number[], header: string[], columns: number): number[] {
  const widths = [...natural];
  const floors = header.map((title) => Math.max(4, width(title)));
  const total = () => lineWidth(widths);
  const keptWhole = identifies(header[0] ?? "") ? 0 : -1;
  for (const shrinkable of [(i: number) => i !== keptWhole, () => true]) {
    while (total() > columns) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++) {
        const size = widths[i] ?? 0;
        if (shrinkable(i) && size > (floors[i] ?? 0) && (widest < 0 || size > (widths[widest] ?? 0)))
          widest = i;
      }
      if (widest < 0) break;
      // Down to the next widest at most, so that the long columns share the cut.
      let next = 0;
      for (let i = 0; i < widths.length; i++)
        if (i !== widest && shrinkable(i)) next = Math.max(next, widths[i] ?? 0);
      const floor = Math.max(floors[widest] ?? 0, next);
      const current = widths[widest] ?? 0;
      widths[widest] = current - Math.max(1, Math.min(total() - columns, current - floor));
    }
  }
  return widths;
}

/** Characters (code points) of a string; plain ASCII, the common case, is its length. */
const width = (text: string): number => (/^[\x20-\x7e]*$/.test(text) ? text.length : [...text].length);

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join("")}…`;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);
