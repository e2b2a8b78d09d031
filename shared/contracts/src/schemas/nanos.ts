import { z } from "zod";

/*
 * Times as the API writes them beside OTLP's own: exact nanoseconds as strings of digits, and the
 * conversions between them and ISO-8601.
 */

/** A non-negative 64-bit count of nanoseconds, as a string of digits (JSON numbers lose precision past 2^53). */
export const nanosSchema = z.string().regex(/^\d{1,19}$/);

/**
 * What PostgreSQL's `bigint` holds, where span times and durations are kept: nanoseconds since the
 * epoch from 1677-09-21 to 2262-04-11. A value a request compares with them must be inside, or the
 * database refuses the query.
 */
export const MAX_NANOS = 9_223_372_036_854_775_807n;
export const MIN_NANOS = -9_223_372_036_854_775_808n;

/**
 * `2024-05-01T12:00:00.123456789+02:00` → nanoseconds since the Unix epoch, exactly (a JavaScript Date
 * would stop at milliseconds). Undefined when the text is not such a timestamp.
 */
export function isoToUnixNanos(iso: string): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?(Z|([+-]\d{2}):?(\d{2})?)$/i.exec(
    iso,
  );
  if (!match) return undefined;
  const [, base, fraction = "", zone = "Z", offsetHours, offsetMinutes = "00"] = match;
  const offset = offsetHours === undefined ? "Z" : `${offsetHours}:${offsetMinutes}`;
  const wholeMs = Date.parse(`${base}${zone.toUpperCase() === "Z" ? "Z" : offset}`);
  if (Number.isNaN(wholeMs)) return undefined;
  return (BigInt(wholeMs) * 1_000_000n + BigInt(fraction.slice(0, 9).padEnd(9, "0"))).toString();
}

/** Nanoseconds since the epoch → ISO-8601 to the millisecond (what every other timestamp of the API has). */
export function unixNanosToIso(nanos: string): string {
  return new Date(Number(BigInt(nanos) / 1_000_000n)).toISOString();
}
