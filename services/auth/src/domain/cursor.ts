import { decodeCursor, encodeCursor } from "@svc/contracts";
import { z } from "zod";

/** Where a page ended in the order (created_at, id): the next page starts strictly after it. */
export interface Position {
  createdAt: Date;
  id: string;
}

const positionSchema = z.strictObject({ t: z.iso.datetime(), i: z.string().min(1).max(200) });

export function encodePosition(position: Position): string {
  return encodeCursor({ t: position.createdAt.toISOString(), i: position.id });
}

export function decodePosition(cursor: string): Position {
  const payload = decodeCursor(positionSchema, cursor);
  return { createdAt: new Date(payload.t), id: payload.i };
}
