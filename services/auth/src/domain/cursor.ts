import { DomainError } from "@svc/contracts";
import { z } from "zod";

/** Where a page ended in the order (created_at, id): the next page starts strictly after it. */
export interface Position {
  createdAt: Date;
  id: string;
}

const cursorPayloadSchema = z.strictObject({ t: z.iso.datetime(), i: z.string().min(1).max(200) });

/** Opaque to clients: base64url JSON, so its shape can change without breaking their code. */
export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify({ t: position.createdAt.toISOString(), i: position.id })).toString(
    "base64url",
  );
}

export function decodeCursor(cursor: string): Position {
  const payload = cursorPayloadSchema.safeParse(parseJson(Buffer.from(cursor, "base64url").toString("utf8")));
  if (!payload.success) throw invalidCursor();
  return { createdAt: new Date(payload.data.t), id: payload.data.i };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const invalidCursorMessage =
  "cursor is invalid: pass the nextCursor of a previous page unchanged, or leave cursor out to start from the first page";

function invalidCursor(): DomainError {
  return new DomainError("validation_failed", invalidCursorMessage, {
    issues: [{ path: "query.cursor", message: invalidCursorMessage, code: "custom" }],
  });
}
