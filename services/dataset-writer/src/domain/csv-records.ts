import type { Writable } from "node:stream";
import { csvTextToCell, DomainError } from "@svc/contracts";
import { parse as parseCsv } from "csv-parse";
import type { FileRecord } from "./file-records";
import { badLine, checkNumbers, MAX_RECORD_CHARS } from "./record-checks";

/**
 * The records of a CSV file (RFC 4180, a header row): each field's text becomes a cell value, and the
 * text as written is kept beside it.
 */
export async function* readCsv(text: AsyncIterable<string>): AsyncIterable<FileRecord> {
  const parser = parseCsv({
    bom: true,
    info: true,
    relax_column_count: false,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_CHARS,
  });
  // Feed the parser from the text, and stop feeding when it fails or is no longer read: a parser
  // that failed never drains, so waiting for room ends when it closes too.
  const feeding = (async () => {
    try {
      for await (const piece of text) {
        if (parser.destroyed) return;
        if (!parser.write(piece)) await roomIn(parser);
      }
      if (!parser.destroyed) parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();
  let header: string[] | undefined;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      // `info.lines` is the line the record ends on; a record with line breaks in quotes starts earlier.
      const line = info.lines - (record.join("").match(/\n/g)?.length ?? 0);
      if (!header) {
        header = checkHeader(record, line);
        continue;
      }
      const fields: Record<string, unknown> = {};
      const written: Record<string, string> = {};
      header.forEach((name, i) => {
        const value = csvTextToCell(record[i] ?? "");
        if (value === undefined) return;
        checkNumbers(value, record[i] ?? "", line);
        fields[name] = value;
        written[name] = record[i] ?? "";
      });
      yield { line, fields, text: written };
    }
  } catch (error) {
    throw csvError(error);
  } finally {
    parser.destroy();
    await feeding;
  }
  if (!header)
    throw new DomainError("validation_failed", "The file is empty: a CSV file needs a header row", {
      line: 1,
    });
}

function checkHeader(names: string[], line: number): string[] {
  const seen = new Map<string, number>();
  names.forEach((name, i) => {
    if (name.trim() === "") throw badLine(line, `column ${i + 1} of the header row has no name`);
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      throw badLine(line, `the header names "${name}" twice (columns ${earlier + 1} and ${i + 1})`, {
        field: name,
      });
    }
    seen.set(name, i);
  });
  return names;
}

function csvError(error: unknown): unknown {
  if (error instanceof DomainError) return error;
  const { code, lines, message } = error as { code?: string; lines?: number; message?: string };
  if (typeof code !== "string" || (!code.startsWith("CSV_") && code !== "INVALID_OPENING_QUOTE"))
    return error;
  const line = typeof lines === "number" ? lines : 0;
  const reason =
    code === "CSV_QUOTE_NOT_CLOSED"
      ? "a quoted field is never closed: a quote is missing"
      : code === "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH"
        ? "the line has another number of fields than the header row"
        : code === "CSV_MAX_RECORD_SIZE"
          ? `the line is longer than ${MAX_RECORD_CHARS} characters`
          : (message ?? code).replace(/^Invalid Record Length: |^Invalid /, "").replace(/,? at line \d+/, "");
  return badLine(line, reason, { reason: code });
}

/** Resolves when a full stream has room again, or is closed and never will. */
function roomIn(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
  });
}
