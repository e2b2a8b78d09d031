import type { BuiltinField } from "@svc/contracts";
import {
  CopyBinaryRows,
  type CopyTo,
  type Database,
  revisionsAt,
  storedColumnOf,
  timestampText,
  withLiterals,
} from "@svc/db";
import { type Kysely, type RawBuilder, sql } from "kysely";
import { afterKey, type RowKey } from "./rows";

/** Where an exported cell is stored: a built-in cell's column, or a custom column's key in `custom`. */
export type StoredCell = { kind: "builtin"; field: BuiltinField } | { kind: "custom"; identifier: string };

/**
 * A row of an export as `COPY` writes it: `bytes[start[i], end[i])` is field `i` (`start[i]` is -1
 * for SQL NULL), valid only while the row is being read. Field 0 is the row id, field 1 its creation
 * time (8 bytes), then one field a cell, the UTF-8 of its JSON as PostgreSQL writes jsonb (the
 * version byte of jsonb's binary form already passed).
 */
export interface ExportedRow {
  bytes: Buffer;
  start: Int32Array;
  end: Int32Array;
}

/** The fields before a row's cells: its id and its creation time. */
export const CELLS_FROM = 2;

/** The byte before a jsonb value's text in binary format (PostgreSQL 15: 1). */
const JSONB_VERSION = 1;

/**
 * Calls `row` for each row valid at `version` in creation order after `after`, `limit` at most,
 * with the cells asked for, and says how many there were. The rows come from `COPY`'s binary
 * format, read where they stand: the driver builds no object and no string for any of them, which
 * is most of what reading a million rows would otherwise cost.
 */
export async function copyExportedRows(
  db: Kysely<Database>,
  copyTo: CopyTo,
  query: {
    datasetId: string;
    version: number;
    after: RowKey | undefined;
    limit: number;
    cells: readonly StoredCell[];
  },
  row: (row: ExportedRow) => void,
): Promise<number> {
  const select = revisionsAt(db, query.datasetId, query.version)
    .select(["r.row_id", "r.created_at", ...query.cells.map((cell, index) => cellJson(cell).as(`c${index}`))])
    .$if(query.after !== undefined, (qb) => qb.where(afterKey({ after: query.after, direction: "asc" })))
    .orderBy("r.created_at")
    .orderBy("r.row_id")
    .limit(query.limit)
    .compile();
  const rows = new CopyBinaryRows(CELLS_FROM + query.cells.length);
  const current: ExportedRow = { bytes: Buffer.alloc(0), start: rows.start, end: rows.end };
  const { start } = rows;
  const fields = start.length;
  let count = 0;
  for await (const chunk of copyTo(withLiterals(select))) {
    rows.push(chunk, (bytes) => {
      for (let field = CELLS_FROM; field < fields; field++) {
        const from = start[field] as number;
        if (from < 0) continue;
        if (bytes[from] !== JSONB_VERSION)
          throw new Error(`a jsonb cell in binary format version ${bytes[from]}`);
        start[field] = from + 1;
      }
      current.bytes = bytes;
      count++;
      row(current);
    });
  }
  rows.finish();
  return count;
}

/** A cell as jsonb: its binary form is a version byte and the text `::text` would give, made in one step. */
function cellJson(cell: StoredCell): RawBuilder<unknown> {
  return cell.kind === "builtin"
    ? sql`${sql.ref(`r.${storedColumnOf[cell.field]}`)}`
    : sql`r.custom -> ${cell.identifier}`;
}

/**
 * The page key of the last row remembered: where the next page starts. A row's id and creation time
 * are copied aside as bytes while it is read, and made into a key only when one is asked for.
 */
export class LastRowKey {
  /** A creation time's 8 bytes, then a row id of at most 128 ASCII characters. */
  private readonly scratch = Buffer.alloc(8 + 128);
  private idLength = -1;

  remember({ bytes, start, end }: ExportedRow): void {
    const scratch = this.scratch;
    const id = start[0] as number;
    const created = start[1] as number;
    for (let i = 0; i < 8; i++) scratch[i] = bytes[created + i] as number;
    const length = (end[0] as number) - id;
    for (let i = 0; i < length; i++) scratch[8 + i] = bytes[id + i] as number;
    this.idLength = length;
  }

  /** The key of the row remembered last; undefined before any. */
  key(): RowKey | undefined {
    if (this.idLength < 0) return undefined;
    return {
      createdAt: timestampText(this.scratch, 0),
      rowId: this.scratch.toString("latin1", 8, 8 + this.idLength),
    };
  }
}
