import {
  compactJson,
  csvField,
  type DatasetColumn,
  type ExportChunk,
  type ExportChunkRequest,
  type ExportFormat,
  isBuiltinField,
  storedCellToCsvText,
} from "@svc/contracts";
import { type Database, findDataset } from "@svc/db";
import type { Kysely, Transaction } from "kysely";
import { listColumns } from "../repositories/columns";
import { inSnapshot } from "../repositories/db";
import {
  type ExportedRow,
  findExportedRowKey,
  listExportedRows,
  type StoredCell,
} from "../repositories/export-rows";
import type { RowKey } from "../repositories/rows";
import { versionNotFound } from "./errors";

/** A piece stops growing past this many characters (a few megabytes, in parts over the bus). */
const CHUNK_CHARS = 1024 * 1024;
/** Rows read at most at once, and at first, until the rows written say how many fill a piece. */
const PAGE_ROWS = 2000;
const FIRST_PAGE_ROWS = 100;

/** Headers a custom column's name may not take as they are: they would read back as something else. */
const TAKEN_HEADERS = new Set([
  "id",
  "rowid",
  "input",
  "output",
  "expectedoutput",
  "expected_output",
  "metadata",
]);

/**
 * One piece of an export: the rows after `after` (the first piece also writes the CSV header) as
 * they were at the export's version, read from the revisions valid then, so that every piece of
 * one export reads the same snapshot however the dataset moves meanwhile. The first piece names
 * the columns; the gateway sends them back with every later request, so every line has the same.
 * Cells are written from the JSON text the database gives, never parsed unless they must be.
 */
export async function exportDataset(
  db: Kysely<Database>,
  organizationId: string,
  request: ExportChunkRequest,
): Promise<ExportChunk> {
  return inSnapshot(db, async (trx) => {
    const dataset = await findDataset(trx, { organizationId, ...request.params });
    const version = request.version ?? dataset.version;
    if (version > dataset.version) throw versionNotFound(version, dataset.version);
    let firstOnly: Pick<ExportChunk, "columns" | "headers"> = {};
    let text = "";
    let cells: StoredCell[];
    if (request.columns === undefined) {
      const columns = await listColumns(trx, dataset.id, { includeRemoved: false });
      const headers = headersOf(columns);
      firstOnly = { columns: headerMap(headers), headers: headers.map((header) => header.text) };
      if (request.after === undefined && request.format === "csv") text = csvHeader(headers);
      cells = columns.map((column) => storedCellOf(column.identifier));
    } else {
      cells = request.columns.map(storedCellOf);
    }
    const writeRow = lineWriter(request.format, cells);

    if (version === 0) return { version, text, after: null, ...firstOnly };
    const scope = { trx, datasetId: dataset.id, version, cells };
    return { version, ...(await fillPiece(scope, { text, after: request.after }, writeRow)), ...firstOnly };
  });
}

interface PieceScope {
  trx: Transaction<Database>;
  datasetId: string;
  version: number;
  cells: readonly StoredCell[];
}

/**
 * Writes rows after `start.after` onto `start.text` until it holds `CHUNK_CHARS`, and says where the
 * next piece starts (null after the last row). Pages grow to what fills the piece, judged by the
 * rows read so far, and a piece ends at the row that fills it, so that however large the rows, a
 * piece is at most one row over. The next page is asked for before this one is written when it will
 * be needed, so that the database reads it while this process writes.
 */
async function fillPiece(
  scope: PieceScope,
  start: { text: string; after: RowKey | undefined },
  writeRow: (row: ExportedRow) => string,
): Promise<{ text: string; after: RowKey | null }> {
  const { trx, datasetId, version, cells } = scope;
  const read = async (after: RowKey | undefined, limit: number) => ({
    rows: await listExportedRows(trx, { datasetId, version, after, limit, cells }),
    limit,
  });
  const keyOf = (rowId: string) => findExportedRowKey(trx, { datasetId, version, rowId });
  // The piece is kept as flat strings, a page's lines joined into one: a string grown line by line
  // is a rope of many small objects, which each young-generation collection would copy again.
  const pages = [start.text];
  let length = start.text.length;
  const piece = (after: RowKey | null) => ({ text: pages.join(""), after });
  let rowsRead = 0;
  let next: ReturnType<typeof read> | undefined = read(start.after, FIRST_PAGE_ROWS);
  while (next) {
    const { rows, limit } = await next;
    next = undefined;
    const last = rows.at(-1);
    if (last === undefined) return piece(null);
    const lastKey = rows.length === limit ? await keyOf(last.rowId) : null;
    rowsRead += rows.length;
    let expected = length;
    for (const row of rows) expected += row.rowId.length + row.size;
    if (lastKey && expected < CHUNK_CHARS) {
      const rowsThatFit = Math.ceil((CHUNK_CHARS - expected) / (expected / rowsRead));
      next = read(lastKey, Math.max(1, Math.min(PAGE_ROWS, rowsThatFit)));
    }
    const lines: string[] = [];
    for (const row of rows) {
      const line = writeRow(row);
      lines.push(line);
      length += line.length;
      if (length >= CHUNK_CHARS) {
        pages.push(lines.join(""));
        await next?.catch(() => undefined); // The transaction's connection ends what it was asked.
        return piece(row === last ? lastKey : await keyOf(row.rowId));
      }
    }
    pages.push(lines.join(""));
    if (!next) return piece(lastKey);
  }
  return piece(null);
}

/** A column's cell by its identifier: a built-in field's identifier is the field's name. */
const storedCellOf = (identifier: string): StoredCell =>
  isBuiltinField(identifier) ? { kind: "builtin", field: identifier } : { kind: "custom", identifier };

/** Writes one row as a line of the format, its cells in the order of `cells`. */
function lineWriter(format: ExportFormat, cells: readonly StoredCell[]): (row: ExportedRow) => string {
  switch (format) {
    case "csv":
      return (row) => {
        let line = csvField(row.rowId);
        for (const cell of row.cells) line += `,${csvField(storedCellToCsvText(cell))}`;
        return `${line}\r\n`;
      };
    case "parquet":
      // JSON arrays of the row id and the cells, one per line: the gateway writes the file from them.
      return (row) =>
        `[${JSON.stringify(row.rowId)}${row.cells.map((cell) => `,${jsonOf(cell)}`).join("")}]\n`;
    case "jsonl":
      return jsonLineWriter(cells);
  }
}

/**
 * One JSONL line a row, its keys in the documented order: rowId, the built-in cells shown (null
 * where unset), then `custom` with the custom cells that are set.
 */
function jsonLineWriter(cells: readonly StoredCell[]): (row: ExportedRow) => string {
  const key = (name: string) => `${JSON.stringify(name)}:`;
  const builtins = cells.flatMap((cell, index) =>
    cell.kind === "builtin" ? [{ index, key: key(cell.field) }] : [],
  );
  const custom = cells.flatMap((cell, index) =>
    cell.kind === "custom" ? [{ index, key: key(cell.identifier) }] : [],
  );
  return (row) => {
    let line = `{"rowId":${JSON.stringify(row.rowId)}`;
    for (const { index, key } of builtins) line += `,${key}${jsonOf(row.cells[index] ?? "")}`;
    line += ',"custom":{';
    let separator = "";
    for (const { index, key } of custom) {
      const cell = row.cells[index] ?? "";
      if (cell === "") continue;
      line += `${separator}${key}${compactJson(cell)}`;
      separator = ",";
    }
    return `${line}}}\n`;
  };
}

/** A stored cell's JSON, compact; `null` for a cell that is not set. */
const jsonOf = (cell: string) => (cell === "" ? "null" : compactJson(cell));

interface Header {
  text: string;
  identifier: string;
  column: DatasetColumn | undefined;
}

function headersOf(columns: readonly DatasetColumn[]): Header[] {
  return [
    { text: "id", identifier: "id", column: undefined },
    ...columns.map((column) => ({
      text:
        column.source.kind === "custom" && TAKEN_HEADERS.has(column.name.toLowerCase())
          ? `${column.name} (${column.identifier})`
          : column.name,
      identifier: column.identifier,
      column,
    })),
  ];
}

const headerMap = (headers: readonly Header[]) =>
  Object.fromEntries(headers.map((header) => [header.text, header.identifier]));

const csvHeader = (headers: readonly Header[]) => `${headers.map((h) => csvField(h.text)).join(",")}\r\n`;
