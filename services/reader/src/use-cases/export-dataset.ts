import {
  type BuiltinField,
  cellToCsvText,
  csvField,
  type DatasetColumn,
  type ExportChunk,
  type ExportChunkRequest,
} from "@svc/contracts";
import { type Database, findDataset } from "@svc/db";
import type { Kysely } from "kysely";
import { listColumns } from "../repositories/columns";
import { inSnapshot } from "../repositories/db";
import { listRowsAtVersion, type RowRecord } from "../repositories/rows";
import { versionNotFound } from "./errors";
import { type VisibleCells, visibilityOf, visibleCells } from "./visible-cells";

/** A piece stops growing past this many characters, well under one bus message once JSON-encoded. */
const CHUNK_CHARS = 384 * 1024;
const PAGE_ROWS = 1000;

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
 * one export reads the same snapshot however the dataset moves meanwhile.
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
    const columns = await listColumns(trx, dataset.id, { includeRemoved: false });
    const headers = headersOf(columns);
    const visibility = visibilityOf(columns);
    const writeRow =
      request.format === "csv"
        ? (row: RowRecord) => csvLine(row, columns)
        : request.format === "parquet"
          ? (row: RowRecord) => `${JSON.stringify([row.rowId, ...cellsInOrder(row, columns)])}\n`
          : (row: RowRecord) => jsonLine(row.rowId, visibleCells(row.cells, visibility));

    const first = request.after === undefined;
    const firstOnly = first
      ? { columns: headerMap(headers), headers: headers.map((header) => header.text) }
      : {};
    let text = first && request.format === "csv" ? csvHeader(headers) : "";
    let after = request.after;
    while (version > 0 && text.length < CHUNK_CHARS) {
      const page = await listRowsAtVersion(trx, {
        datasetId: dataset.id,
        version,
        direction: "asc",
        after,
        limit: PAGE_ROWS,
        search: undefined,
      });
      for (const row of page) {
        text += writeRow(row);
        after = row.key;
        if (text.length >= CHUNK_CHARS) return { version, text, after, ...firstOnly };
      }
      if (page.length < PAGE_ROWS) break;
    }
    return { version, text, after: null, ...firstOnly };
  });
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

const csvHeader = (headers: readonly Header[]) => `${headers.map((h) => csvField(h.text)).join(",")}\r\n`;

function csvLine(row: RowRecord, columns: readonly DatasetColumn[]): string {
  const fields = [csvField(row.rowId)];
  for (const value of cellsInOrder(row, columns)) fields.push(csvField(cellToCsvText(value)));
  return `${fields.join(",")}\r\n`;
}

/** The row's cells in the order of the columns (and of the headers after `id`); null where unset. */
function cellsInOrder(row: RowRecord, columns: readonly DatasetColumn[]): unknown[] {
  return columns.map(
    (column) =>
      (column.source.kind === "builtin"
        ? row.cells[column.source.field as BuiltinField]
        : row.cells.custom[column.identifier]) ?? null,
  );
}

/** One JSONL line, its keys in the documented order: rowId, the built-in cells shown, custom. */
function jsonLine(rowId: string, { custom, ...builtins }: VisibleCells): string {
  return `${JSON.stringify({ rowId, ...builtins, custom })}\n`;
}
