import { createHash } from "node:crypto";
import { DomainError, type Page } from "@svc/contracts";
import type { z } from "zod";

/**
 * Cursors are base64url JSON carrying a checksum of their content. The checksum is no secret: it makes
 * a cursor that was cut short, corrupted or edited by hand fail loudly instead of reading from
 * somewhere else. Nothing in a cursor grants access: every read still resolves the dataset inside the
 * caller's organisation.
 */
export function encodeCursor(payload: Record<string, unknown>): string {
  const sum = checksum(JSON.stringify(payload));
  return Buffer.from(JSON.stringify({ ...payload, sum }), "utf8").toString("base64url");
}

/** Reads a cursor issued by `encodeCursor`; anything else is `validation_failed`. */
export function decodeCursor<S extends z.ZodType>(schema: S, raw: string): z.output<S> {
  const { sum, ...payload } = parseCursorJson(raw);
  if (typeof sum !== "string" || sum !== checksum(JSON.stringify(payload))) throw foreignCursor();
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw foreignCursor();
  return parsed.data;
}

export function invalidCursor(reason: string): DomainError {
  return new DomainError("validation_failed", `Request is invalid: query.cursor: ${reason}`, {
    issues: [{ path: "query.cursor", message: reason, code: "custom" }],
  });
}

const foreignCursor = () =>
  invalidCursor(
    "is not a cursor this list issued; pass a page's nextCursor unchanged, or start again without a cursor",
  );

function parseCursorJson(raw: string): Record<string, unknown> {
  if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw foreignCursor();
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // Falls through to the same answer as any other foreign cursor.
  }
  throw foreignCursor();
}

function checksum(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 16);
}

/** A short fingerprint of a value that a cursor must match without carrying it whole. */
export function fingerprint(value: string | undefined): string | null {
  return value === undefined ? null : checksum(value);
}

/**
 * The most a page's items may weigh as JSON. A page travels to the gateway as one bus message, which
 * NATS limits to 1 MiB unless configured otherwise; rows and traces hold whatever clients stored, so
 * 200 of them may weigh far more. `limit` is a maximum: a page ends early, with `hasMore` and a cursor
 * after its last item, once the next item would take it past this.
 */
const PAGE_MAX_BYTES = 768 * 1024;

/**
 * Builds a page from up to `limit + 1` records: the extra one only says that there is more, and the
 * cursor points after the last record shown. A page always shows its first record, however large: the
 * next page would start at the same place.
 */
export function toPage<R, T>(
  records: readonly R[],
  limit: number,
  item: (record: R) => T,
  cursorAfter: (record: R) => string,
  maxBytes = PAGE_MAX_BYTES,
): Page<T> {
  const items: T[] = [];
  let bytes = 0;
  for (const record of records.slice(0, limit)) {
    const shown = item(record);
    bytes += Buffer.byteLength(JSON.stringify(shown) ?? "null");
    if (items.length > 0 && bytes > maxBytes) break;
    items.push(shown);
  }
  const last = records[items.length - 1];
  const hasMore = records.length > items.length && last !== undefined;
  return { items, nextCursor: hasMore ? cursorAfter(last) : null, hasMore };
}
