import { createHash } from "node:crypto";
import type { z } from "zod";
import { DomainError } from "./errors";

/**
 * The one codec of every list's cursor. Cursors are base64url JSON carrying a checksum of their
 * content. The checksum is no secret: it makes a cursor that was cut short, corrupted or edited by hand
 * fail loudly instead of reading from somewhere else. Nothing in a cursor grants access: every read
 * still resolves what it lists inside the caller's organisation.
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

/** A well-formed cursor that does not fit this request (another list's, another version's). */
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
export function cursorFingerprint(value: string | undefined): string | null {
  return value === undefined ? null : checksum(value);
}
