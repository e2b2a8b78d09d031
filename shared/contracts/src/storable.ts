/**
 * What no operation's input may hold, whatever its schema: text PostgreSQL stores neither in text nor
 * in jsonb (the character U+0000, and UTF-16 surrogates without their pair, which are not Unicode),
 * and nesting deeper than `MAX_INPUT_DEPTH`, which would exhaust the stack of a recursive schema or of
 * the database's JSON parser. They are the client's mistake and must be refused as such, before they
 * can fail as a database or runtime error. (An operation may take such text and store it replaced, as
 * trace ingestion does: see `Operation.unstorableText`.) This is the one definition; the database
 * is checked against it in shared/db/src/cell-rules.test.ts.
 */
export const MAX_INPUT_DEPTH = 100;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export interface UnstorableInput {
  /** Where the problem is: object keys and array indexes from the root of the value. */
  path: (string | number)[];
  message: string;
}

const NUL_MESSAGE = "must not contain the character U+0000 (\\u0000), which cannot be stored";
const SURROGATE_MESSAGE =
  "must not contain a UTF-16 surrogate without its pair (such as \\ud83d alone), which is not Unicode";
const DEPTH_MESSAGE = `is nested more than ${MAX_INPUT_DEPTH} levels deep; flatten it`;
/** Not global, unlike LONE_SURROGATE: `test` on a global regex keeps its position between calls. */
const HAS_LONE_SURROGATE = new RegExp(LONE_SURROGATE.source);

/** Why a string cannot be stored, or undefined when it can. */
function textProblem(text: string): string | undefined {
  if (text.includes("\u0000")) return NUL_MESSAGE;
  if (HAS_LONE_SURROGATE.test(text)) return SURROGATE_MESSAGE;
  return undefined;
}

/**
 * The first unstorable thing in `value`, or undefined; with `text: false`, only nesting is checked.
 * Walks without recursion: input may nest deeply.
 */
export function findUnstorableInput(value: unknown, { text = true } = {}): UnstorableInput | undefined {
  // Each entry knows its parent, so that a path is built only for the one problem found.
  type Entry = { value: unknown; key: string | number | undefined; parent: Entry | undefined; depth: number };
  const pathTo = (entry: Entry | undefined, last?: string): (string | number)[] => {
    const path: (string | number)[] = last === undefined ? [] : [last];
    for (let at = entry; at?.key !== undefined; at = at.parent) path.unshift(at.key);
    return path;
  };
  const stack: Entry[] = [{ value, key: undefined, parent: undefined, depth: 0 }];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const at = entry.value;
    if (typeof at === "string") {
      const problem = text ? textProblem(at) : undefined;
      if (problem) return { path: pathTo(entry), message: problem };
      continue;
    }
    if (at === null || typeof at !== "object") continue;
    if (entry.depth >= MAX_INPUT_DEPTH) return { path: pathTo(entry), message: DEPTH_MESSAGE };
    const depth = entry.depth + 1;
    if (Array.isArray(at)) {
      for (let i = at.length - 1; i >= 0; i--) stack.push({ value: at[i], key: i, parent: entry, depth });
      continue;
    }
    const entries = Object.entries(at);
    for (const [key] of text ? entries : []) {
      const problem = textProblem(key);
      if (problem) return { path: pathTo(entry, key), message: problem };
    }
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, inner] = entries[i] as [string, unknown];
      stack.push({ value: inner, key, parent: entry, depth });
    }
  }
  return undefined;
}
