import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import type { Clock } from "../domain/oauth";
import { sessionEnded } from "../domain/sessions";
import { hashToken } from "../domain/tokens";
import { updateBrowserSessionEnded } from "../repositories/browser-sessions";
import type { RevocationEvents } from "./delete-api-key";

/** Signs out: the session ends at once on every gateway. Ending one that is already over is no error. */
export async function endBrowserSession(
  deps: { db: Kysely<Database>; clock: Clock; events: RevocationEvents },
  token: string,
): Promise<null> {
  const sessionId = await updateBrowserSessionEnded(deps.db, hashToken(token), deps.clock());
  if (sessionId !== undefined) deps.events.credentialRevoked(sessionEnded(sessionId));
  return null;
}
