/**
 * Rows in the binary format of `COPY … TO STDOUT (FORMAT binary)`, read as its bytes arrive in
 * pieces cut anywhere: an 11-byte signature, a flags word and a header extension, then per row a
 * field count and per field a length (-1 for NULL) and that many bytes, then -1 where a row's
 * count would be. A text field's bytes are its UTF-8 text, nothing escaped, so a row's fields are
 * read where they stand, without a string or an object made for them.
 */

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
/** The signature, the flags word and the header extension's length. */
const HEADER_BYTES = SIGNATURE.length + 8;

export class CopyBinaryRows {
  /** The current row's fields: field `i` is `bytes[start[i], end[i])`, or NULL when `start[i]` is -1. */
  readonly start: Int32Array;
  readonly end: Int32Array;
  private pending: Buffer | undefined;
  private headerRead = false;
  private ended = false;

  constructor(private readonly fields: number) {
    this.start = new Int32Array(fields);
    this.end = new Int32Array(fields);
  }

  /** Whether the end of the rows has been read. */
  get done(): boolean {
    return this.ended;
  }

  /**
   * Reads the rows `chunk` completes, calling `row` with the bytes that hold each (its fields where
   * `start` and `end` say, valid during the call only). What is left of an incomplete row waits for
   * the next chunk.
   */
  push(chunk: Uint8Array, row: (bytes: Buffer) => void): undefined {
    const piece = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const bytes = this.pending ? Buffer.concat([this.pending, piece]) : piece;
    this.pending = undefined;
    let at = 0;
    if (!this.headerRead) {
      if (bytes.length < HEADER_BYTES) return this.keep(bytes, 0);
      if (!bytes.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error("not COPY's binary format");
      const extension = bytes.readUInt32BE(SIGNATURE.length + 4);
      if (bytes.length < HEADER_BYTES + extension) return this.keep(bytes, 0);
      at = HEADER_BYTES + extension;
      this.headerRead = true;
    }
    const { start, end, fields } = this;
    while (at < bytes.length) {
      if (this.ended) throw new Error("COPY's binary format: bytes after its end");
      if (at + 2 > bytes.length) return this.keep(bytes, at);
      const count = bytes.readInt16BE(at);
      if (count === -1) {
        this.ended = true;
        at += 2;
        continue;
      }
      if (count !== fields) throw new Error(`COPY's binary format: a row of ${count} fields, not ${fields}`);
      let next = at + 2;
      for (let field = 0; field < fields; field++) {
        if (next + 4 > bytes.length) return this.keep(bytes, at);
        const length = bytes.readInt32BE(next);
        next += 4;
        if (length === -1) {
          start[field] = -1;
          end[field] = -1;
          continue;
        }
        if (next + length > bytes.length) return this.keep(bytes, at);
        start[field] = next;
        end[field] = next + length;
        next += length;
      }
      row(bytes);
      at = next;
    }
  }

  /** Keeps what is left of the bytes from `from` on, until the next chunk completes it. */
  private keep(bytes: Buffer, from: number): undefined {
    this.pending = bytes.subarray(from);
  }

  /** Fails unless every row has been read to the end of the format. */
  finish(): void {
    if (!this.ended || this.pending) throw new Error("COPY's binary format: the rows end mid-way");
  }
}

/** A `timestamptz` field's 8 bytes (microseconds since 2000-01-01 UTC) as UTC text with microseconds. */
export function timestampText(bytes: Buffer, at: number): string {
  const micros = bytes.readBigInt64BE(at);
  const millis = Number(micros / 1000n) + Date.UTC(2000, 0, 1);
  const rest = Number(((micros % 1000n) + 1000n) % 1000n);
  const floored = micros < 0n && rest > 0 ? millis - 1 : millis;
  return `${new Date(floored).toISOString().slice(0, 23)}${String(rest).padStart(3, "0")}Z`;
}

/**
 * A compiled query with its parameters written into its text as literals, for `COPY`, which takes
 * none. Every `$n` in the text is a placeholder the compiler wrote (the text holds no literal of
 * its own), and the text is read once, so a value's own characters are never taken for one.
 */
export function withLiterals(query: { sql: string; parameters: readonly unknown[] }): string {
  return query.sql.replace(/\$(\d+)/g, (_, index: string) => literal(query.parameters[Number(index) - 1]));
}

function literal(value: unknown): string {
  if (typeof value === "string") {
    if (value.includes("\0")) throw new Error("a text literal cannot hold U+0000");
    // An escape string constant: its meaning does not depend on standard_conforming_strings.
    return `E'${value.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
  }
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return String(value);
  throw new Error(`no literal for a parameter of type ${typeof value}`);
}
