import { z } from "zod";

/*
 * zod builds each object it returns afresh and leaves out a key named `__proto__`, since assigning that
 * key to a new object would set the object's prototype instead. JSON.parse makes it an ordinary key, and
 * a client may send one: a cell `{"__proto__": 1, "a": 2}` was stored as `{"a": 2}`, and a custom key
 * `__proto__` vanished from a row edit instead of being refused as an unknown column. The records here
 * carry such keys through zod under an escaped name and hand them back as ordinary own keys.
 *
 * The escape puts one U+0000 before `__proto__` (and before a key that is U+0000s then `__proto__`, so
 * that the escape can be undone whatever the key). No client can send U+0000, which is refused before
 * any schema runs (see storable.ts), so an escaped key in an issue's path is always one of these.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is the escape, on purpose
const ESCAPABLE = /^\u0000*__proto__$/;

export const escapeProtoKey = (key: string): string => (ESCAPABLE.test(key) ? `\u0000${key}` : key);

export const unescapeProtoKey = (key: string): string =>
  ESCAPABLE.test(key) && key.startsWith("\u0000") ? key.slice(1) : key;

/** The object with its own keys renamed, or the object itself when no key needs it. */
function renameKeys(value: unknown, rename: (key: string) => string): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  // On every object of every cell, twice: a loop that allocates nothing, for the usual answer.
  let renamed = false;
  for (const key in value) if (key.endsWith("__proto__") && rename(key) !== key) renamed = true;
  if (!renamed) return value;
  // Object.fromEntries defines each key as an own property: `__proto__` stays a key.
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [rename(key), inner]));
}

/**
 * `z.record(key, value)`, keeping a `__proto__` key: checked by `key` and `value` like any other, and
 * an own key of the result. Documented exactly as `z.record(key, value)` is.
 */
export function recordOf<K extends z.ZodType<string, string>, V extends z.ZodType>(key: K, value: V) {
  // The key is checked as the client sent it, and stays escaped until the record is built.
  const keyAsSent = z.preprocess(
    (escaped) => (typeof escaped === "string" ? unescapeProtoKey(escaped) : escaped),
    key.overwrite((sent) => escapeProtoKey(sent) as z.output<K>),
  ) as unknown as K;
  return escapedRecord(keyAsSent, value);
}

/** A record whose input keys are escaped before zod sees them and unescaped in what it returns. */
function escapedRecord<K extends z.ZodType<string, string>, V extends z.ZodType>(key: K, value: V) {
  return (
    z
      .preprocess((input) => renameKeys(input, escapeProtoKey), z.record(key, value))
      .overwrite((record) => renameKeys(record, unescapeProtoKey) as typeof record)
      // A preprocess takes undefined as zod sees it, which would make every field of this type optional.
      .nonoptional()
  );
}

/** Any JSON value, as z.json() takes it, keeping `__proto__` keys at every depth. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(jsonValueSchema),
    // Any string is a key here, escaped or not: no need to check it as sent (on every object of every cell).
    escapedRecord(z.string(), jsonValueSchema),
  ]),
);
