import { DomainError, MAX_FILE_FIELDS } from "@svc/contracts";
import { asyncBufferFromFile, parquetMetadataAsync, parquetRead, parquetSchema } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import type { FileRecord, ReadProgress } from "./file-record";
import { tooManyFields } from "./record-checks";

/**
 * The rows of a Parquet file on disk, one row group at a time (memory holds one group, never the
 * file), each a record whose `line` is the row's number in the file. Values become JSON: 64-bit
 * integers as numbers where exact (else their digits as a string), times as ISO-8601 text, bytes
 * that are not text as base64, lists and structs as arrays and objects; a null field is left out.
 */
export async function* readParquet(path: string, progress: ReadProgress): AsyncIterable<FileRecord> {
  const file = await asyncBufferFromFile(path);
  let metadata: Awaited<ReturnType<typeof parquetMetadataAsync>>;
  try {
    metadata = await parquetMetadataAsync(file);
  } catch {
    // The library's own words (offsets, thrift fields) say nothing a person can act on.
    throw new DomainError(
      "validation_failed",
      'The file is not a Parquet file that can be read: its footer (the file\'s metadata, which ends it with "PAR1") is missing or damaged; the file may be cut short, so upload it again whole',
      { line: 1 },
    );
  }
  const width = metadata.schema[0]?.num_children ?? 0;
  if (width > MAX_FILE_FIELDS) throw tooManyFields(1, `the file has ${width} columns`);
  // Rows as arrays, named here: the library's row objects are plain objects, which lose a column
  // called `__proto__` (the assignment sets their prototype instead).
  const names = parquetSchema(metadata).children.map((child) => child.element.name);
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    let rows: unknown[][] = [];
    try {
      await parquetRead({
        file,
        metadata,
        rowStart,
        rowEnd,
        compressors,
        rowFormat: "array",
        onComplete: (read) => {
          rows = read as unknown[][];
        },
      });
    } catch {
      throw new DomainError(
        "validation_failed",
        `Line ${rowStart + 1}: the rows from here on cannot be read: the file is damaged there, or written with an encoding or compression this platform does not read (it reads snappy, gzip, brotli, zstd and lz4)`,
        { line: rowStart + 1 },
      );
    }
    for (const [index, row] of rows.entries()) {
      yield { line: rowStart + index + 1, fields: fieldsOf(names, row) };
    }
    progress.bytesRead = Math.min(
      file.byteLength,
      progress.bytesRead +
        group.columns.reduce(
          (total, column) => total + Number(column.meta_data?.total_compressed_size ?? 0),
          0,
        ),
    );
    rowStart = rowEnd;
  }
  progress.bytesRead = file.byteLength;
}

/**
 * A row's fields as JSON values. A null field gives no value, as an empty CSV field does: Parquet
 * writes an unset cell as null, so an exported file imported back as an update changes nothing.
 */
function fieldsOf(names: readonly string[], row: readonly unknown[]): Record<string, unknown> {
  const fields: Record<string, unknown> = Object.create(null);
  names.forEach((name, i) => {
    const value = row[i];
    if (value !== null && value !== undefined) fields[name] = jsonOf(value);
  });
  return fields;
}

/** A Parquet value as the JSON value a cell holds. */
export function jsonOf(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "bigint") {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (Array.isArray(value)) return value.map(jsonOf);
  if (typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, jsonOf(item)]),
    );
  }
  return value;
}
