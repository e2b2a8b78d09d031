import { type CreatedApiKey, newId, type Role } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { toApiKey } from "../domain/contract-views";
import { hashToken, lastFourOf, newToken } from "../domain/tokens";
import { insertApiKey } from "../repositories/api-keys";

export interface KeyToIssue {
  organizationId: string;
  name: string;
  role: Role;
  /** A token chosen by the operator (the bootstrap key); a random one otherwise. */
  token?: string | undefined;
  /** The person making it, when there is one. */
  createdByUserId?: string | undefined;
}

/** A key as its creation answers it the first time: with its token. */
export type IssuedApiKey = CreatedApiKey & { token: string; tokenAlreadyShown: false };

/** Stores a new key by its hash and hands back the only copy of its token. */
export async function issueApiKey(db: Kysely<Database>, key: KeyToIssue): Promise<IssuedApiKey> {
  const token = key.token ?? newToken();
  const record = await insertApiKey(db, {
    id: newId(),
    organizationId: key.organizationId,
    name: key.name,
    role: key.role,
    tokenHash: hashToken(token),
    tokenLast4: lastFourOf(token),
    createdAt: new Date(),
    createdByUserId: key.createdByUserId,
  });
  return { ...toApiKey(record), token, tokenAlreadyShown: false };
}

/**
 * A created key as a replay of its request answers it, and as the idempotency record stores it: the
 * token was shown once, in the first answer, and is kept nowhere (docs/decisions/0002).
 */
export const shownOnce = (key: CreatedApiKey): CreatedApiKey => ({
  ...key,
  token: null,
  tokenAlreadyShown: true,
});
