import { DomainError, firstInvalidByte } from "@svc/contracts";
import type { FastifyRequest } from "fastify";

/** `a=1&b=2&b=3` → `{a: "1", b: ["2", "3"]}`, in an object without a prototype (a `__proto__` name is a name). */
export type UrlEncodedFields = Record<string, string | string[]>;

/** Where a query string or form body stops being percent-encoded UTF-8. */
export interface UndecodableText {
  /** The parameter whose value holds it; undefined when it is in a parameter's name. */
  parameter: string | undefined;
  /** Its offset in the whole query string or body, in characters. */
  at: number;
  /** The escape (or lone `%`) found there. */
  escape: string;
  /** True for a `%` that does not begin an escape; false for escapes that are not UTF-8. */
  stray: boolean;
}

const strict = new TextDecoder("utf-8", { fatal: true });
const HEX = /^[0-9A-Fa-f]{2}$/;

/**
 * Parses `application/x-www-form-urlencoded` text (a query string is written the same way), strictly:
 * URLSearchParams puts U+FFFD in place of escapes that are not UTF-8 and Fastify's own parser keeps them
 * undecoded, so either would hand on something the client never meant. Such text is the client's
 * mistake, named with its offset, like a body that is not UTF-8.
 */
export function parseUrlEncoded(
  text: string,
): { fields: UrlEncodedFields } | { undecodable: UndecodableText } {
  const fields: UrlEncodedFields = Object.create(null);
  let start = 0;
  for (const pair of text.split("&")) {
    if (pair !== "") {
      const equals = pair.indexOf("=");
      const rawName = equals === -1 ? pair : pair.slice(0, equals);
      const name = decodeComponent(rawName, start);
      if (typeof name !== "string") return { undecodable: { parameter: undefined, ...name } };
      const value = equals === -1 ? "" : decodeComponent(pair.slice(equals + 1), start + equals + 1);
      if (typeof value !== "string") return { undecodable: { parameter: name, ...value } };
      const existing = fields[name];
      fields[name] =
        existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
    }
    start += pair.length + 1;
  }
  return { fields };
}

type Problem = Omit<UndecodableText, "parameter">;

/** One name or value: `+` is a space, `%XX` a byte, and each run of bytes must be UTF-8. */
function decodeComponent(raw: string, offset: number): string | Problem {
  if (!raw.includes("%")) return raw.replaceAll("+", " ");
  let out = "";
  let i = 0;
  while (i < raw.length) {
    if (raw[i] !== "%") {
      out += raw[i] === "+" ? " " : raw[i];
      i++;
      continue;
    }
    const bytes: number[] = [];
    const runStart = i;
    while (raw[i] === "%") {
      const hex = raw.slice(i + 1, i + 3);
      if (!HEX.test(hex)) {
        if (bytes.length > 0) break;
        return { at: offset + i, escape: raw.slice(i, i + 3), stray: true };
      }
      bytes.push(Number.parseInt(hex, 16));
      i += 3;
    }
    const run = Uint8Array.from(bytes);
    const bad = firstInvalidByte(run);
    if (bad < run.length) {
      const at = runStart + bad * 3;
      return { at: offset + at, escape: raw.slice(at, at + 3), stray: false };
    }
    out += strict.decode(run);
  }
  return out;
}

/** Where the text stops decoding, in words: `in the parameter "search"`. */
export const placeOf = (problem: UndecodableText): string =>
  problem.parameter === undefined ? "in a parameter name" : `in the parameter "${problem.parameter}"`;

/** Why it does not decode, in words, with the offset. */
export const reasonOf = (problem: UndecodableText): string =>
  problem.stray
    ? `"${problem.escape}" at character ${problem.at} is not an escape: "%" begins %XX, and "%" itself is written %25`
    : `the escape "${problem.escape}" at character ${problem.at} is not part of a UTF-8 character`;

const undecodableQueries = new WeakMap<object, UndecodableText>();

/**
 * Fastify's query-string parser. It runs inside the router, where an exception would escape every
 * error handler: a query string that does not decode parses to no fields and is remembered, for
 * `refuseUndecodableQuery` to refuse once the request has its id and its route.
 */
export function parseQueryString(text: string): UrlEncodedFields {
  const parsed = parseUrlEncoded(text);
  if ("fields" in parsed) return parsed.fields;
  const fields: UrlEncodedFields = Object.create(null);
  undecodableQueries.set(fields, parsed.undecodable);
  return fields;
}

export function refuseUndecodableQuery(request: FastifyRequest): void {
  const problem = undecodableQueries.get(request.query as object);
  if (!problem) return;
  const reason = reasonOf(problem);
  throw new DomainError(
    "validation_failed",
    `The query string is not percent-encoded UTF-8 ${placeOf(problem)}: ${reason}; percent-encode the UTF-8 bytes of each name and value`,
    {
      issues: [
        {
          path: problem.parameter === undefined ? "query" : `query.${problem.parameter}`,
          message: `is not percent-encoded UTF-8: ${reason}`,
          code: "invalid_utf8",
        },
      ],
    },
  );
}
