import {
  type DatasetColumn,
  DomainError,
  type ExportChunk,
  type ExportChunkRequest,
  type ExportFormat,
  isBuiltinField,
} from "@svc/contracts";
import { type CopyTo, type Database, findDataset } from "@svc/db";
import { WithBody } from "@svc/service";
import type { Kysely } from "kysely";
import { COMMA, CR, ExportBytes, LF, QUOTE } from "../export-bytes";
import { listColumns } from "../repositories/columns";
import { inSnapshot } from "../repositories/db";
import {
  CELLS_FROM,
  copyExportedRows,
  type ExportedRow,
  LastRowKey,
  type StoredCell,
} from "../repositories/export-rows";
import type { RowKey } from "../repositories/rows";
import { versionNotFound } from "./errors";

/** A piece stops growing past this many bytes (sent over the bus in parts). */
const CHUNK_BYTES = 1024 * 1024;
/** Rows asked for at first, unless the previous piece's rows say how many fill one. */
const FIRST_PAGE_ROWS = 100;
/** Rows asked for at most at once. */
const MAX_PAGE_ROWS = 20_000;
/** Rows are asked for by this much more than the rows read so far say will fill a piece. */
const PAGE_MARGIN = 1.05;

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

export interface ExportDeps {
  db: Kysely<Database>;
  copyTo: CopyTo;
}

/**
 * One piece of an export: the rows after `after` (the first piece also writes the CSV header) as
 * they were at the export's version, read from the revisions valid then, so that every piece of
 * one export reads the same rows however the dataset moves meanwhile (a revision valid at a
 * version stays so). The first piece names the columns; the gateway sends them back with every
 * later request, so every line has the same. Cells are written from the JSON text the database
 * gives, never parsed unless they must be.
 */
export async function exportDataset(
  deps: ExportDeps,
  organizationId: string,
  request: ExportChunkRequest,
): Promise<WithBody<ExportChunk>> {
  const out = new ExportBytes(CHUNK_BYTES + 64 * 1024, request.csvFormulas ?? "escape");
  // A later piece names its columns: one look at the dataset is enough. The first reads the dataset
  // and its columns in one snapshot, so that the columns are those of the version it finds.
  const { dataset, version, cells, firstOnly } = await (request.columns !== undefined
    ? laterPiece(deps.db, organizationId, request, request.columns)
    : inSnapshot(deps.db, async (trx) => {
        const { dataset, version } = await versionOf(trx, organizationId, request);
        const columns = await listColumns(trx, dataset.id, { includeRemoved: false });
        const headers = headersOf(columns);
        if (request.after === undefined && request.format === "csv") writeCsvHeader(out, headers);
        const firstOnly = { columns: headerMap(headers), headers: headers.map((header) => header.text) };
        return {
          dataset,
          version,
          cells: columns.map((column) => storedCellOf(column.identifier)),
          firstOnly,
        };
      }));
  if (version === 0)
    return new WithBody({ datasetId: dataset.id, version, after: null, rows: 0, ...firstOnly }, out.result());
  const scope = { ...deps, datasetId: dataset.id, version, cells };
  const firstPage = request.rowsHint ? Math.ceil(request.rowsHint * PAGE_MARGIN) : FIRST_PAGE_ROWS;
  const { after, rows } = await fillPiece(
    scope,
    out,
    request.after,
    firstPage,
    rowWriter(request.format, cells),
  );
  // The rows end here, or the dataset went away while they were read (taking its rows with it):
  // the last piece is sent only once the dataset is seen still there.
  if (after === null) await versionOf(deps.db, organizationId, { ...request, datasetId: dataset.id });
  return new WithBody({ datasetId: dataset.id, version, after, rows, ...firstOnly }, out.result());
}

/**
 * The dataset and the version an export reads, which must exist: a later piece's dataset is the one
 * the first piece read, not another that has taken its slug since.
 */
async function versionOf(db: Kysely<Database>, organizationId: string, request: ExportChunkRequest) {
  const dataset = await findDataset(db, { organizationId, ...request.params });
  if (request.datasetId !== undefined && dataset.id !== request.datasetId) throw datasetGone(request);
  const version = request.version ?? dataset.version;
  if (version > dataset.version) throw versionNotFound(version, dataset.version);
  return { dataset, version };
}

async function laterPiece(
  db: Kysely<Database>,
  organizationId: string,
  request: ExportChunkRequest,
  columns: readonly string[],
) {
  const { dataset, version } = await versionOf(db, organizationId, request);
  return { dataset, version, cells: columns.map(storedCellOf), firstOnly: {} };
}

const datasetGone = ({ params }: ExportChunkRequest) =>
  new DomainError(
    "not_found",
    `Dataset "${params.datasetSlug}" was deleted while it was exported; the slug now names another dataset`,
  );

interface PieceScope extends ExportDeps {
  datasetId: string;
  version: number;
  cells: readonly StoredCell[];
}

/**
 * Writes rows after `after` into `out` until it holds `CHUNK_BYTES`, and says where the next piece
 * starts (null after the last row). A page asks for as many rows as those written so far say will
 * fill the piece, and a little more; a piece ends at the row that fills it, so that however large
 * the rows, a piece is at most one row over, and the rows read past it are skipped.
 */
async function fillPiece(
  scope: PieceScope,
  out: ExportBytes,
  start: RowKey | undefined,
  firstPage: number,
  writeRow: (out: ExportBytes, row: ExportedRow) => void,
): Promise<{ after: RowKey | null; rows: number }> {
  const headerBytes = out.length;
  const last = new LastRowKey();
  let after = start;
  let limit = Math.min(MAX_PAGE_ROWS, firstPage);
  let written = 0;
  for (;;) {
    let full = false;
    const read = await copyExportedRows(scope.db, scope.copyTo, { ...scope, after, limit }, (row) => {
      if (full) return; // A COPY is read to its end: its connection is then free for the next.
      writeRow(out, row);
      written++;
      last.remember(row);
      full = out.length >= CHUNK_BYTES;
    });
    if (full) return { after: last.key() ?? null, rows: written };
    if (read < limit) return { after: null, rows: written };
    after = last.key();
    const bytesPerRow = (out.length - headerBytes) / written;
    const rowsThatFit = (CHUNK_BYTES - out.length) / Math.max(1, bytesPerRow);
    limit = Math.max(1, Math.min(MAX_PAGE_ROWS, Math.ceil(rowsThatFit * PAGE_MARGIN)));
  }
}

/** A column's cell by its identifier: a built-in field's identifier is the field's name. */
const storedCellOf = (identifier: string): StoredCell =>
  isBuiltinField(identifier) ? { kind: "builtin", field: identifier } : { kind: "custom", identifier };

/** Writes one row as a line of the format, its cells in the order of `cells`. */
function rowWriter(
  format: ExportFormat,
  cells: readonly StoredCell[],
): (out: ExportBytes, row: ExportedRow) => void {
  const fields = CELLS_FROM + cells.length;
  switch (format) {
    case "csv":
      return (out, { bytes, start, end }) => {
        out.csvRowId(bytes, start[0] as number, end[0] as number);
        for (let field = CELLS_FROM; field < fields; field++) {
          out.byte(COMMA);
          out.csvCell(bytes, start[field] as number, end[field] as number);
        }
        out.byte(CR);
        out.byte(LF);
      };
    case "parquet":
      // JSON arrays of the row id and the cells, one per line: the gateway writes the file from them.
      return (out, { bytes, start, end }) => {
        out.ascii('["');
        out.bytes(bytes, start[0] as number, end[0] as number); // a row id needs no escapes
        out.byte(QUOTE);
        for (let field = CELLS_FROM; field < fields; field++) {
          out.byte(COMMA);
          out.jsonCell(bytes, start[field] as number, end[field] as number);
        }
        out.ascii("]\n");
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
    cell.kind === "builtin" ? [{ field: CELLS_FROM + index, key: Buffer.from(`,${key(cell.field)}`) }] : [],
  );
  const custom = cells.flatMap((cell, index) =>
    cell.kind === "custom" ? [{ field: CELLS_FROM + index, key: Buffer.from(key(cell.identifier)) }] : [],
  );
  return (out, { bytes, start, end }) => {
    out.ascii('{"rowId":"');
    out.bytes(bytes, start[0] as number, end[0] as number);
    out.byte(QUOTE);
    for (const { field, key } of builtins) {
      out.bytes(key, 0, key.length);
      out.jsonCell(bytes, start[field] as number, end[field] as number);
    }
    out.ascii(',"custom":{');
    let first = true;
    for (const { field, key } of custom) {
      const from = start[field] as number;
      if (from < 0) continue;
      if (!first) out.byte(COMMA);
      first = false;
      out.bytes(key, 0, key.length);
      out.compactJson(bytes, from, end[field] as number, false);
    }
    out.ascii("}}\n");
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
    out.csvText(header.text);
  });
  out.byte(CR);
  out.byte(LF);
}
