import { WithBody } from "@svc/bus";
import {
  type DatasetColumn,
  type ExportChunk,
  type ExportChunkRequest,
  type ExportFormat,
  isBuiltinField,
} from "@svc/contracts";
import { type Database, findDataset } from "@svc/db";
import type { Kysely, Transaction } from "kysely";
import { COMMA, CR, ExportBytes, LF } from "../export-bytes";
import { listColumns } from "../repositories/columns";
import { inSnapshot } from "../repositories/db";
import {
  CELL_SEPARATOR,
  type ExportedRow,
  findExportedRowKey,
  listExportedRows,
  type StoredCell,
} from "../repositories/export-rows";
import type { RowKey } from "../repositories/rows";
import { versionNotFound } from "./errors";

/** A piece stops growing past this many bytes (sent over the bus in parts). */
const CHUNK_BYTES = 1024 * 1024;
/**
 * Rows read at most at once, and at first (unless the previous piece's rows say how many fill one),
 * until the rows written say how many fill a piece.
 */
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
): Promise<WithBody<ExportChunk>> {
  return inSnapshot(db, async (trx) => {
    const dataset = await findDataset(trx, { organizationId, ...request.params });
    const version = request.version ?? dataset.version;
    if (version > dataset.version) throw versionNotFound(version, dataset.version);
    let firstOnly: Pick<ExportChunk, "columns" | "headers"> = {};
    const out = new ExportBytes(CHUNK_BYTES + 64 * 1024);
    let cells: StoredCell[];
    if (request.columns === undefined) {
      const columns = await listColumns(trx, dataset.id, { includeRemoved: false });
      const headers = headersOf(columns);
      firstOnly = { columns: headerMap(headers), headers: headers.map((header) => header.text) };
      if (request.after === undefined && request.format === "csv") writeCsvHeader(out, headers);
      cells = columns.map((column) => storedCellOf(column.identifier));
    } else {
      cells = request.columns.map(storedCellOf);
    }
    const writeRow = rowWriter(request.format, cells);

    if (version === 0) return new WithBody({ version, after: null, rows: 0, ...firstOnly }, out.result());
    const scope = { trx, datasetId: dataset.id, version, cells };
    const firstPage = Math.min(PAGE_ROWS, request.rowsHint ?? FIRST_PAGE_ROWS);
    const { after, rows } = await fillPiece(scope, out, { after: request.after, firstPage }, writeRow);
    return new WithBody({ version, after, rows, ...firstOnly }, out.result());
  });
}

interface PieceScope {
  trx: Transaction<Database>;
  datasetId: string;
  version: number;
  cells: readonly StoredCell[];
}

/**
 * Writes rows after `after` into `out` until it holds `CHUNK_BYTES`, and says where the next piece
 * starts (null after the last row). Pages grow to what fills the piece, judged by the rows read so
 * far, and a piece ends at the row that fills it, so that however large the rows, a piece is at
 * most one row over. The next page is asked for before this one is written when it will be needed,
 * so that the database reads it while this process writes.
 */
async function fillPiece(
  scope: PieceScope,
  out: ExportBytes,
  start: { after: RowKey | undefined; firstPage: number },
  writeRow: (out: ExportBytes, row: ExportedRow) => void,
): Promise<{ after: RowKey | null; rows: number }> {
  const { trx, datasetId, version, cells } = scope;
  const read = async (after: RowKey | undefined, limit: number) => ({
    rows: await listExportedRows(trx, { datasetId, version, after, limit, cells }),
    limit,
  });
  const keyOf = (rowId: string) => findExportedRowKey(trx, { datasetId, version, rowId });
  let rowsRead = 0;
  let charsRead = 0;
  let written = 0;
  const piece = (after: RowKey | null) => ({ after, rows: written });
  let next: ReturnType<typeof read> | undefined = read(start.after, start.firstPage);
  while (next) {
    const { rows, limit } = await next;
    next = undefined;
    const last = rows.at(-1);
    if (last === undefined) return piece(null);
    const lastKey = rows.length === limit ? await keyOf(last.rowId) : null;
    rowsRead += rows.length;
    let pageChars = 0;
    for (const row of rows) pageChars += row.rowId.length + row.cells.length;
    charsRead += pageChars;
    // About a byte a character: most text is ASCII, and the quotes a field adds make up for the rest.
    const expected = out.length + pageChars;
    if (lastKey && expected < CHUNK_BYTES) {
      const rowsThatFit = Math.ceil((CHUNK_BYTES - expected) / (charsRead / rowsRead));
      next = read(lastKey, Math.max(1, Math.min(PAGE_ROWS, rowsThatFit)));
    }
    for (const row of rows) {
      writeRow(out, row);
      written++;
      if (out.length >= CHUNK_BYTES) {
        await next?.catch(() => undefined); // The transaction's connection ends what it was asked.
        return piece(row === last ? lastKey : await keyOf(row.rowId));
      }
    }
    if (!next) return piece(lastKey);
  }
  return piece(null);
}

/** A column's cell by its identifier: a built-in field's identifier is the field's name. */
const storedCellOf = (identifier: string): StoredCell =>
  isBuiltinField(identifier) ? { kind: "builtin", field: identifier } : { kind: "custom", identifier };

/** A row's cells, one JSON text each, for `count` cells. */
const splitCells = (row: ExportedRow, count: number): string[] =>
  count === 0 ? [] : row.cells.split(CELL_SEPARATOR);

/** Writes one row as a line of the format, its cells in the order of `cells`. */
function rowWriter(
  format: ExportFormat,
  cells: readonly StoredCell[],
): (out: ExportBytes, row: ExportedRow) => void {
  switch (format) {
    case "csv":
      // The cells are read where they stand in the row's text, not split into strings of their own.
      return (out, row) => {
        out.csvField(row.rowId);
        const text = row.cells;
        let from = 0;
        for (let index = 0; index < cells.length; index++) {
          const to = index === cells.length - 1 ? text.length : text.indexOf(CELL_SEPARATOR, from);
          out.byte(COMMA);
          out.csvCell(text, from, to);
          from = to + 1;
        }
        out.byte(CR);
        out.byte(LF);
      };
    case "parquet":
      // JSON arrays of the row id and the cells, one per line: the gateway writes the file from them.
      return (out, row) => {
        out.text(`[${JSON.stringify(row.rowId)}`);
        for (const cell of splitCells(row, cells.length)) {
          out.byte(COMMA);
          out.jsonCell(cell);
        }
        out.text("]\n");
      };
    case "jsonl":
      return jsonLineWriter(cells);
  }
}

/**
 * One JSONL line a row, its keys in the documented order: rowId, the built-in cells shown (null
 * where unset), then `custom` with the custom cells that are set.
 */
function jsonLineWriter(cells: readonly StoredCell[]): (out: ExportBytes, row: ExportedRow) => void {
  const key = (name: string) => `${JSON.stringify(name)}:`;
  const builtins = cells.flatMap((cell, index) =>
    cell.kind === "builtin" ? [{ index, key: `,${key(cell.field)}` }] : [],
  );
  const custom = cells.flatMap((cell, index) =>
    cell.kind === "custom" ? [{ index, key: key(cell.identifier) }] : [],
  );
  return (out, row) => {
    const values = splitCells(row, cells.length);
    out.text(`{"rowId":${JSON.stringify(row.rowId)}`);
    for (const { index, key } of builtins) {
      out.text(key);
      out.jsonCell(values[index] ?? "");
    }
    out.text(',"custom":{');
    let first = true;
    for (const { index, key } of custom) {
      const cell = values[index] ?? "";
      if (cell === "") continue;
      if (!first) out.byte(COMMA);
      first = false;
      out.text(key);
      out.compactJson(cell, false);
    }
    out.text("}}\n");
  };
}

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

function writeCsvHeader(out: ExportBytes, headers: readonly Header[]): void {
  headers.forEach((header, index) => {
    if (index > 0) out.byte(COMMA);
    out.csvField(header.text);
  });
  out.byte(CR);
  out.byte(LF);
}
