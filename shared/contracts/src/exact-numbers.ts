/**
 * JSON numbers are decimal text of any length; what reads them here is a double, which holds about
 * 15–17 significant digits and no exponent beyond ±308. A number it cannot hold exactly
 * (12345678901234567890, 3.14159265358979323846, 1e-400) would be stored as another number: data
 * changed without a word. Such a number is found in the text, before it is trusted, and refused (or,
 * where text is text whatever it looks like, as in a CSV field, kept as the text written).
 *
 * A number is exact when the double it reads as, written back, is the same decimal value (`1.50` and
 * `1.5`, `1E2` and `100` are). `-0` reads as `0`, as PostgreSQL's jsonb stores it too. A number beyond a
 * double's range reads as Infinity, which JSON cannot write (it becomes null on the way to storage):
 * `findNumberOutOfRange` finds it in the parsed value.
 */
export interface InexactNumber {
  /** The number as written. */
  text: string;
  /** Where it starts, in characters from the start of the text. */
  index: number;
}

/** Why such a number is refused, as messages say it. */
export const INEXACT_REASON = "cannot be stored exactly (a number keeps about 15 significant digits)";

/** A number as a message names it: as written, cut at 40 characters. */
export const shownNumber = (number: string): string =>
  number.length > 40 ? `${number.slice(0, 40)}…` : number;

/** Cheap first look: sixteen digits or more, or an exponent of three digits. Most texts have neither. */
const MAY_BE_INEXACT = /(?:\d\.?){16}|[eE][+-]?\d{3}/;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The first number of a JSON text that a double cannot hold exactly, outside strings. */
export function findInexactNumber(json: string): InexactNumber | undefined {
  if (!MAY_BE_INEXACT.test(json)) return undefined;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const text = NUMBER.exec(json)?.[0];
      if (text === undefined) continue;
      if (!isExact(text)) return { text, index: i };
      i += text.length - 1;
    }
  }
  return undefined;
}

export function isExact(number: string): boolean {
  const value = Number(number);
  return !Number.isFinite(value) || decimal(number) === decimal(String(value));
}

/** A number's decimal value in one spelling: sign, digits without leading or trailing zeros, exponent. */
function decimal(number: string): string {
  const parts = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(number);
  if (!parts) return number;
  const [, sign, whole = "", fraction = "", exponent = "0"] = parts;
  const digits = `${whole}${fraction}`.replace(/^0+/, "");
  if (digits === "") return "0";
  const significant = digits.replace(/0+$/, "");
  const scale = Number(exponent) - fraction.length + (digits.length - significant.length);
  return `${sign}${significant}e${scale}`;
}

/** Why a number beyond a double's range is refused, as messages say it. */
export const OUT_OF_RANGE_REASON = "is a number beyond the range of a double (about ±1.8e308)";

/**
 * Text that may hold a number beyond a double's range: one is at least 1e309, so either its exponent
 * has three digits, or (an exponent of two digits at most, and JSON allows no leading zeros) its
 * whole part has 210 digits or more. Most texts have neither, and are not walked.
 */
const MAY_OVERFLOW = /\d[eE]\+?0*[1-9]\d{2}|\d{210}/;

/**
 * Where the first number of `value` that is not finite is, as object keys and array indexes from the
 * root; undefined when there is none. `text` is the JSON it was parsed from: the cheap first look.
 * Walks without recursion: a body may nest deeply.
 */
export function findNumberOutOfRange(value: unknown, text: string): (string | number)[] | undefined {
  if (!MAY_OVERFLOW.test(text)) return undefined;
  // Each entry knows its parent, so that a path is built only for the number found.
  type Entry = { value: unknown; key: string | number | undefined; parent: Entry | undefined };
  const stack: Entry[] = [{ value, key: undefined, parent: undefined }];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const at = entry.value;
    if (typeof at === "number") {
      if (Number.isFinite(at)) continue;
      const path: (string | number)[] = [];
      for (let up: Entry | undefined = entry; up?.key !== undefined; up = up.parent) path.unshift(up.key);
      return path;
    }
    if (Array.isArray(at)) {
      for (let i = at.length - 1; i >= 0; i--) stack.push({ value: at[i], key: i, parent: entry });
    } else if (at !== null && typeof at === "object") {
      // Own keys, `__proto__` among them when JSON.parse made one.
      const entries = Object.entries(at);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i] as [string, unknown];
        stack.push({ value: inner, key, parent: entry });
      }
    }
  }
  return undefined;
}
