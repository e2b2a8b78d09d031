import type { Writable } from "node:stream";
import { csvTextToCell, csvUnescapedText, DomainError, MAX_FILE_FIELDS } from "@svc/contracts";
import { Parser } from "csv-parse";
import type { FileRecord } from "./file-record";
import { badLine, checkNumbers, MAX_RECORD_CHARS, tooManyFields } from "./record-checks";

/**
 * The records of a CSV file (RFC 4180, a header row): each field's text becomes a cell value, and the
 * text as written is kept beside it. The fields in `textFields` are their text, whatever it looks like.
 */
export async function* readCsv(
  text: AsyncIterable<string>,
  textFields: ReadonlySet<string> = NO_FIELDS,
): AsyncIterable<FileRecord> {
  const parser = new NumberedParser({
    bom: true,
    relax_column_count: false,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_CHARS,
  });
  // Feed the parser from the text, and stop feeding when it fails or is no longer read: a parser
  // that failed never drains, so waiting for room ends when it closes too.
  const feeding = (async () => {
    try {
      for await (const piece of headerWidthChecked(text)) {
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
    for await (const { record, lines } of parser as AsyncIterable<NumberedRecord>) {
      // `lines` is the line the record ends on; a record with line breaks in quotes starts earlier.
      let line = lines;
      for (const text of record)
        for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) line--;
      if (!header) {
        header = checkHeader(record.map(csvUnescapedText), line);
        continue;
      }
      // Without a prototype, a field named `__proto__` or `constructor` is a field like any other.
      const fields: Record<string, unknown> = Object.create(null);
      const written: Record<string, string> = Object.create(null);
      for (let i = 0; i < header.length; i++) {
        const name = header[i] as string;
        const text = record[i] ?? "";
        const value = textFields.has(name) && text !== "" ? csvUnescapedText(text) : csvTextToCell(text);
        if (value === undefined) continue;
        checkNumbers(value, text, line);
        fields[name] = value;
        written[name] = csvUnescapedText(text);
      }
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

/**
 * The text, passed on as it comes, once its header row is known to have at most the fields a file
 * may have. The parser builds a record's fields before anyone can count them, which for a header of
 * 100,000 names takes the better part of a second (and the process with it); this scanner counts the
 * separators outside quotes as the header arrives and stops at the first one too many.
 */
async function* headerWidthChecked(text: AsyncIterable<string>): AsyncIterable<string> {
  const header = new HeaderWidth();
  const pieces = text[Symbol.asyncIterator]();
  try {
    for (let next = await pieces.next(); !next.done; next = await pieces.next()) {
      if (!header.done) header.scan(next.value);
      yield next.value;
    }
  } finally {
    await pieces.return?.();
  }
}

/** Counts a CSV header's fields as its text arrives: separators outside quotes, up to its line end. */
class HeaderWidth {
  done = false;
  private fields = 1;
  private line = 1;
  private empty = true;
  private fieldStart = true;
  private quoted = false;
  private quoteInQuoted = false;

  scan(piece: string): void {
    for (let i = 0; i < piece.length && !this.done; i++) {
      const char = piece[i];
      if (this.quoted) {
        if (!this.quoteInQuoted) {
          if (char === '"') this.quoteInQuoted = true;
          continue;
        }
        this.quoteInQuoted = false;
        // `""` is a quote inside the field; anything else after a quote has closed it.
        if (char === '"') continue;
        this.quoted = false;
      }
      if (char === ",") {
        if (++this.fields > MAX_FILE_FIELDS)
          throw tooManyFields(this.line, `the header row has more than ${MAX_FILE_FIELDS} fields`);
        this.fieldStart = true;
        this.empty = false;
      } else if (char === "\n") {
        // The parser passes over blank lines before the header; so does the count.
        if (this.empty) this.line++;
        else this.done = true;
      } else if (char === '"' && this.fieldStart) {
        this.quoted = true;
        this.fieldStart = false;
        this.empty = false;
      } else if (char !== "\r") {
        this.fieldStart = false;
        this.empty = false;
      }
    }
  }
}

interface NumberedRecord {
  record: string[];
  /** The line the record ends on. */
  lines: number;
}

/**
 * csv-parse's parser, each record pushed with the line it ends on, read from the parser's running
 * count as the record is pushed. Its `info` option gives the same number, but in a copy of a dozen
 * fields a record, which cost more than parsing the record.
 */
class NumberedParser extends Parser {
  override push(record: unknown, encoding?: BufferEncoding): boolean {
    return super.push(
      record === null ? null : ({ record, lines: this.info.lines } as NumberedRecord),
      encoding,
    );
  }
}

const NO_FIELDS: ReadonlySet<string> = new Set();

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
