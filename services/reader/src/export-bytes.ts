/*
 * An export's lines, written as UTF-8 bytes straight from the cells' JSON text as the database
 * writes jsonb. Each cell is written by the round-trip rule (../shared/API.md): nothing for null; a
 * string as itself unless it is empty or would read back as another JSON value, in which case it is
 * written as a JSON string (`""`, `"42"`, `"true"`); any other value as its JSON, compact (without
 * the space PostgreSQL writes after each `:` and `,` outside strings), numbers as stored. A CSV field
 * is quoted when it holds a comma, a quote or a line break, or starts or ends with a space.
 *
 * Written into one buffer a piece rather than as JavaScript strings: quoting a field as a string
 * (`replaceAll`, then concatenation) cost more than everything else an export did per row, and the
 * bytes go over the bus and to the client as they are, never encoded into JSON and parsed again.
 */

import { isSpace, startsLikeJson } from "@svc/contracts";

/** Bytes the lines of every format are written with. */
export const COMMA = 0x2c;
export const LF = 0x0a;
export const CR = 0x0d;
const QUOTE = 0x22;
const COLON = 0x3a;
const SPACE = 0x20;
const BACKSLASH = 0x5c;

/** The bytes of one export piece, growing as rows are written. */
export class ExportBytes {
  private bytes: Buffer;
  private at = 0;

  /** `size`: about what the piece will hold, so that it seldom grows. */
  constructor(size = 64 * 1024) {
    this.bytes = Buffer.allocUnsafe(size);
  }

  get length(): number {
    return this.at;
  }

  /** The bytes written, without a copy: the buffer is not written again after this. */
  result(): Uint8Array {
    return this.bytes.subarray(0, this.at);
  }

  byte(value: number): void {
    if (this.at === this.bytes.length) this.grow(1);
    this.bytes[this.at++] = value;
  }

  /** `text[from, to)` as UTF-8, each `"` written twice when `doubleQuotes`. */
  text(text: string, from = 0, to = text.length, doubleQuotes = false): void {
    if (from === to) return;
    // A UTF-16 unit takes at most 3 bytes as UTF-8, and a quote written twice 2.
    if (this.at + 3 * (to - from) > this.bytes.length) this.grow(3 * (to - from));
    const bytes = this.bytes;
    let at = this.at;
    let next = from;
    // A short text's ASCII start is written here, one unit a byte: cheaper than a call into the
    // encoder. The rest, from the first other character on, or a long text, goes to the encoder.
    if (to - from <= SHORT) {
      for (; next < to; next++) {
        const unit = text.charCodeAt(next);
        if (unit >= 0x80) break;
        bytes[at++] = unit;
        if (unit === QUOTE && doubleQuotes) bytes[at++] = QUOTE;
      }
    }
    this.at = at;
    if (next === to) return;
    this.at += bytes.write(next === 0 && to === text.length ? text : text.slice(next, to), at, "utf8");
    if (doubleQuotes) this.doubleQuotes(at);
  }

  /** Writes every `"` after `start` twice, moving what follows it (room was reserved). */
  private doubleQuotes(start: number): void {
    const bytes = this.bytes;
    const end = this.at;
    let quotes = 0;
    for (let i = start; i < end; i++) if (bytes[i] === QUOTE) quotes++;
    if (quotes === 0) return;
    this.at = end + quotes;
    let to = this.at;
    for (let i = end - 1; quotes > 0; i--) {
      const byte = bytes[i] as number;
      bytes[--to] = byte;
      if (byte === QUOTE) {
        bytes[--to] = QUOTE;
        quotes--;
      }
    }
  }

  private grow(bytes: number): void {
    const grown = Buffer.allocUnsafe(Math.max(this.at + bytes, 2 * this.bytes.length));
    grown.set(this.bytes.subarray(0, this.at));
    this.bytes = grown;
  }

  /** `text[from, to)` as one CSV field, quoted when it must be. */
  csvField(text: string, from = 0, to = text.length): void {
    const quoted = needsQuotes(text, from, to);
    if (quoted) this.byte(QUOTE);
    this.text(text, from, to, quoted);
    if (quoted) this.byte(QUOTE);
  }

  /**
   * A stored cell's JSON, `json[from, to)` (empty when the cell is not set), as a CSV field, by the
   * round-trip rule.
   */
  csvCell(json: string, from = 0, to = json.length): void {
    switch (json.charCodeAt(from)) {
      case 0x6e: // null
        return;
      case QUOTE: {
        const escaped = json.indexOf("\\", from);
        if (escaped >= 0 && escaped < to) {
          const cell = json.slice(from, to);
          const text = JSON.parse(cell) as string;
          this.csvField(text === "" || readsAsJson(text, 0, text.length) ? cell : text);
        } else if (to - from === 2 || readsAsJson(json, from + 1, to - 1)) {
          this.csvField(json, from, to);
        } else {
          this.csvField(json, from + 1, to - 1);
        }
        return;
      }
      case 0x7b: // {
      case 0x5b: {
        // An object or an array ([): its JSON holds no line break and neither starts nor ends with a space.
        const quoted = includes(json, QUOTE, from, to) || includes(json, COMMA, from, to);
        if (quoted) this.byte(QUOTE);
        this.compactJson(json, quoted, from, to);
        if (quoted) this.byte(QUOTE);
        return;
      }
      default:
        this.text(json, from, to); // a number, true or false; nothing when not set
    }
  }

  /** A stored cell's JSON, compact; `null` for a cell that is not set. */
  jsonCell(json: string): void {
    if (json === "") this.text("null");
    else this.compactJson(json, false);
  }

  /**
   * JSON as PostgreSQL writes it, `json[from, to)`, without the one space it writes after each `:`
   * and `,` outside strings.
   */
  compactJson(json: string, doubleQuotes: boolean, from = 0, to = json.length): void {
    let start = from;
    let at = from;
    while (at < to) {
      const unit = json.charCodeAt(at);
      if (unit === QUOTE) {
        at = afterString(json, at);
      } else if ((unit === COMMA || unit === COLON) && json.charCodeAt(at + 1) === SPACE) {
        this.text(json, start, at + 1, doubleQuotes);
        start = at + 2;
        at += 2;
      } else {
        at++;
      }
    }
    this.text(json, start, to, doubleQuotes);
  }
}

/** Texts this short are written unit by unit as far as they are ASCII. */
const SHORT = 1024;

function includes(text: string, unit: number, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === unit) return true;
  return false;
}

/** The index after the JSON string that opens at `start`. */
function afterString(json: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const end = json.indexOf('"', at);
    if (end < 0) return json.length;
    let backslashes = 0;
    while (json.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end + 1;
    at = end + 1;
  }
}

/** A field is quoted when it holds a comma, a quote or a line break, or starts or ends with a space. */
function needsQuotes(text: string, from: number, to: number): boolean {
  if (from === to) return false;
  if (isSpace(text.charCodeAt(from)) || isSpace(text.charCodeAt(to - 1))) return true;
  for (let i = from; i < to; i++) {
    const unit = text.charCodeAt(i);
    if (unit === QUOTE || unit === COMMA || unit === LF || unit === CR) return true;
  }
  return false;
}

/**
 * Whether `text[from, to)` would read back as JSON (`csvTextToCell` parses a field that starts
 * like JSON, by `startsLikeJson`). Only such a text is parsed, and one that starts with t, f or n
 * only when it starts with the literal.
 */
function readsAsJson(text: string, from: number, to: number): boolean {
  const first = text.charCodeAt(from);
  switch (first) {
    case 0x74: // t
      if (!text.startsWith("true", from)) return false;
      break;
    case 0x66: // f
      if (!text.startsWith("false", from)) return false;
      break;
    case 0x6e: // n
      if (!text.startsWith("null", from)) return false;
      break;
    default:
      if (!startsLikeJson(first)) return false;
  }
  try {
    JSON.parse(from === 0 && to === text.length ? text : text.slice(from, to));
    return true;
  } catch {
    return false;
  }
}
