/**
 * One record of a file: its line (where it starts) and its fields, each a JSON value. A field may be
 * called anything, `__proto__` and `constructor` included: read them as own keys (Object.entries,
 * Object.hasOwn), never by indexing with a name from the file.
 */
export interface FileRecord {
  line: number;
  fields: Record<string, unknown>;
  /** CSV only: each field's text as written, for what is text whatever it looks like (a row id). */
  text?: Record<string, string>;
}

/** How far the reading has got, for an import's progress. */
export interface ReadProgress {
  bytesRead: number;
}
