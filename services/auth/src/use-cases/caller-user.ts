import type { Caller } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";

/**
 * The person behind a caller: the user of a person's session, or the one who made the API key used
 * (a key made by no person, or a session opened with such a key, has none).
 */
export async function callerUserId(db: Kysely<Database>, caller: Caller): Promise<string | undefined> {
  if (caller.actor.kind === "user") return caller.actor.id;
  if (caller.actor.kind === "apiKey") {
    const key = await db
      .selectFrom("api_keys")
      .select("created_by_user_id as userId")
      .where("id", "=", caller.actor.id)
      .executeTakeFirst();
    return key?.userId ?? undefined;
  }
  return undefined;
}
