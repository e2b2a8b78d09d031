/*
 * An export's lines, written as UTF-8 bytes straight from the cells' JSON text as the database
 * writes jsonb. Each cell is written by the round-trip rule (../shared/API.md): nothing for null; a
 * string as itself unless it is empty or would read back as another JSON value, in which case it is
 * written as a JSON string (`""`, `"42"`, `"true"`); any other value as its JSON, compact (without
 * the space PostgreSQL writes after each `:` and `,` outside strings), numbers as stored. A CSV field
 * is quoted when it holds a comma, a quote or a line break, or starts or ends with a space. A CSV
 * text (a string cell, a header, a row id) that a spreadsheet would run as a formula is written
 * after an apostrophe, unless formulas are asked for raw, and one that begins with an apostrophe
 * always is (see csvFormulaModes): numbers, objects and JSON strings never begin so.
 *
 * Written into one buffer a piece rather than as JavaScript strings: quoting a field as a string
 * (`replaceAll`, then concatenation) cost more than everything else an export did per row, and the
 * bytes go over the bus and to the client as they are, never encoded into JSON and parsed again.
 * The cells come as bytes too (the UTF-8 of their JSON text, as `COPY` writes it) and are copied
 * from where they stand; only a string that holds an escape or might read as JSON is decoded.
 */

import { type CsvFormulaMode, csvNeedsApostrophe, isSpace, startsLikeJson } from "@svc/contracts";

/** Bytes the lines of every format are written with. */
export const COMMA = 0x2c;
export const LF = 0x0a;
export const CR = 0x0d;
export const QUOTE = 0x22;
const COLON = 0x3a;
const SPACE = 0x20;
const BACKSLASH = 0x5c;
const APOSTROPHE = 0x27;

/** The bytes of one export piece, growing as rows are written. */
export class ExportBytes {
  private out: Buffer;
  private at = 0;

  /** `size`: about what the piece will hold, so that it seldom grows. */
  constructor(
    size = 64 * 1024,
    private readonly formulas: CsvFormulaMode = "escape",
  ) {
    this.out = Buffer.allocUnsafe(size);
  }

  get length(): number {
    return this.at;
  }

  /** The bytes written, without a copy: the buffer is not written again after this. */
  result(): Uint8Array {
    return this.out.subarray(0, this.at);
  }

  byte(value: number): void {
    if (this.at === this.out.length) this.grow(1);
    this.out[this.at++] = value;
  }

  /** ASCII text, such as a key or a bracket. */
  ascii(text: string): void {
    if (this.at + text.length > this.out.length) this.grow(text.length);
    for (let i = 0; i < text.length; i++) this.out[this.at++] = text.charCodeAt(i);
  }

  /** `src[from, to)` as they are, each `"` written twice when `doubleQuotes`. */
  bytes(src: Buffer, from: number, to: number, doubleQuotes = false): void {
    const length = to - from;
    if (this.at + 2 * length > this.out.length) this.grow(2 * length);
    const out = this.out;
    let at = this.at;
    if (length > LONG && !doubleQuotes) {
      this.at = at + src.copy(out, at, from, to);
      return;
    }
    for (let i = from; i < to; i++) {
      const byte = src[i] as number;
      out[at++] = byte;
      if (byte === QUOTE && doubleQuotes) out[at++] = QUOTE;
    }
    this.at = at;
  }

  private grow(bytes: number): void {
    const grown = Buffer.allocUnsafe(Math.max(this.at + bytes, 2 * this.out.length));
    grown.set(this.out.subarray(0, this.at));
    this.out = grown;
  }

  /** `src[from, to)`, UTF-8 text, as one CSV field, quoted when it must be. */
  csvField(src: Buffer, from: number, to: number): void {
    const quoted = needsQuotes(src, from, to);
    if (quoted) this.byte(QUOTE);
    this.apostropheBefore(src, from, to);
    this.bytes(src, from, to, quoted);
    if (quoted) this.byte(QUOTE);
  }

  /** A text as one CSV field (a header, say). */
  csvText(text: string): void {
    const bytes = Buffer.from(text, "utf8");
    this.csvField(bytes, 0, bytes.length);
  }

  /**
   * A stored cell's JSON, `json[from, to)` (`from` < 0 when the cell is not set), as a CSV field,
   * by the round-trip rule.
   */
  csvCell(json: Buffer, from: number, to: number): void {
    if (from < 0 || from === to) return;
    switch (json[from]) {
      case 0x6e: // null
        return;
      case QUOTE:
        if (this.plainString(json, from, to)) return;
        if (includes(json, BACKSLASH, from, to)) {
          const text = JSON.parse(json.toString("utf8", from, to)) as string;
          const bytes = Buffer.from(text, "utf8");
          if (text === "" || readsAsJson(bytes, 0, bytes.length)) this.quoted(json, from, to);
          else this.csvField(bytes, 0, bytes.length);
        } else if (to - from === 2 || readsAsJson(json, from + 1, to - 1)) {
          this.quoted(json, from, to);
        } else {
          this.csvField(json, from + 1, to - 1);
        }
        return;
      case 0x7b: // {
      case 0x5b: {
        // An object or an array ([): its JSON holds no line break and neither starts nor ends with a space.
        const quoted = includes(json, QUOTE, from, to) || includes(json, COMMA, from, to);
        if (quoted) this.byte(QUOTE);
        this.compactJson(json, from, to, quoted);
        if (quoted) this.byte(QUOTE);
        return;
      }
      default:
        this.bytes(json, from, to); // a number, true or false
    }
  }

  /**
   * Writes the JSON string `json[from, to)` as its text, and says so, when that is all it takes:
   * the text holds no escape (so no quote and no line break either) and does not start like JSON,
   * so it is written as it stands, quoted when it holds a comma or ends with a space. One pass.
   */
  private plainString(json: Buffer, from: number, to: number): boolean {
    if (to - from === 2 || mayReadAsJson(json, from + 1, to - 1)) return false;
    let comma = false;
    for (let i = from + 1; i < to - 1; i++) {
      const byte = json[i] as number;
      if (byte === BACKSLASH) return false;
      if (byte === COMMA) comma = true;
    }
    const quoted = comma || isSpace(codePointAt(json, lastCharacter(json, from + 1, to - 1)));
    if (quoted) this.byte(QUOTE);
    this.apostropheBefore(json, from + 1, to - 1);
    this.bytes(json, from + 1, to - 1);
    if (quoted) this.byte(QUOTE);
    return true;
  }

  /** A row id as a CSV field: it needs no quotes, but may begin with `-`. */
  csvRowId(src: Buffer, from: number, to: number): void {
    this.apostropheBefore(src, from, to);
    this.bytes(src, from, to);
  }

  /** The apostrophe before a text that a spreadsheet would run, or that begins with one. */
  private apostropheBefore(text: Buffer, from: number, to: number): void {
    if (from < to && csvNeedsApostrophe(text[from], this.formulas)) this.byte(APOSTROPHE);
  }

  /** `src[from, to)` as a quoted CSV field. */
  private quoted(src: Buffer, from: number, to: number): void {
    this.byte(QUOTE);
    this.bytes(src, from, to, true);
    this.byte(QUOTE);
  }

  /** A stored cell's JSON, compact; `null` for a cell that is not set (`from` < 0). */
  jsonCell(json: Buffer, from: number, to: number): void {
    if (from < 0) this.ascii("null");
    else this.compactJson(json, from, to, false);
  }

  /**
   * JSON as PostgreSQL writes it, `json[from, to)`, without the one space it writes after each `:`
   * and `,` outside strings; every `"` written twice when `doubleQuotes`. One pass, byte by byte.
   */
  compactJson(json: Buffer, from: number, to: number, doubleQuotes: boolean): void {
    if (this.at + 2 * (to - from) > this.out.length) this.grow(2 * (to - from));
    const out = this.out;
    let at = this.at;
    let inString = false;
    for (let i = from; i < to; i++) {
      const byte = json[i] as number;
      out[at++] = byte;
      if (byte === QUOTE) {
        inString = !inString;
        if (doubleQuotes) out[at++] = QUOTE;
      } else if (inString) {
        if (byte === BACKSLASH) {
          const escaped = json[++i] as number; // the character a backslash escapes, `"` included
          out[at++] = escaped;
          if (escaped === QUOTE && doubleQuotes) out[at++] = QUOTE;
        }
      } else if ((byte === COMMA || byte === COLON) && json[i + 1] === SPACE) {
        i++;
      }
    }
    this.at = at;
  }
}

/** Ranges longer than this are copied by the runtime rather than byte by byte. */
const LONG = 64;

function includes(bytes: Buffer, byte: number, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (bytes[i] === byte) return true;
  return false;
}

/** A field is quoted when it holds a comma, a quote or a line break, or starts or ends with a space. */
function needsQuotes(text: Buffer, from: number, to: number): boolean {
  if (from === to) return false;
  if (isSpace(codePointAt(text, from)) || isSpace(codePointAt(text, lastCharacter(text, from, to))))
    return true;
  for (let i = from; i < to; i++) {
    const byte = text[i];
    if (byte === QUOTE || byte === COMMA || byte === LF || byte === CR) return true;
  }
  return false;
}

/** The code point of the UTF-8 character at `at` (U+10000 for any beyond the first plane). */
function codePointAt(text: Buffer, at: number): number {
  const first = text[at] as number;
  if (first < 0x80) return first;
  const second = (text[at + 1] as number) & 0x3f;
  if (first < 0xe0) return ((first & 0x1f) << 6) | second;
  if (first < 0xf0) return ((first & 0x0f) << 12) | (second << 6) | ((text[at + 2] as number) & 0x3f);
  return 0x10000;
}

/** Where the last UTF-8 character of `text[from, to)` starts. */
function lastCharacter(text: Buffer, from: number, to: number): number {
  let at = to - 1;
  while (at > from && ((text[at] as number) & 0xc0) === 0x80) at--;
  return at;
}

/**
 * Whether the UTF-8 text `text[from, to)` would read back as JSON (`csvTextToCell` parses a field
 * that starts like JSON, by `startsLikeJson`). Only such a text is parsed, and one that starts with
 * t, f or n only when it starts with the literal.
 */
function readsAsJson(text: Buffer, from: number, to: number): boolean {
  if (!mayReadAsJson(text, from, to)) return false;
  try {
    JSON.parse(text.toString("utf8", from, to));
    return true;
  } catch {
    return false;
  }
}

/** Whether `text[from, to)` starts like JSON: only then may it read as JSON. */
function mayReadAsJson(text: Buffer, from: number, to: number): boolean {
  const first = codePointAt(text, from);
  switch (first) {
    case 0x74: // t
      return startsWith(text, from, to, "true");
    case 0x66: // f
      return startsWith(text, from, to, "false");
    case 0x6e: // n
      return startsWith(text, from, to, "null");
    default:
      return startsLikeJson(first);
  }
}

function startsWith(text: Buffer, from: number, to: number, ascii: string): boolean {
  if (to - from < ascii.length) return false;
  for (let i = 0; i < ascii.length; i++) if (text[from + i] !== ascii.charCodeAt(i)) return false;
  return true;
}
