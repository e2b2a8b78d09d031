import { type CreatedSession, type CreateSessionInput, DomainError, newId } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import type { Clock } from "../domain/oauth";
import { addMs } from "../domain/oauth";
import { newSessionToken, type SessionLifetimes } from "../domain/sessions";
import { hashToken, isTokenShaped } from "../domain/tokens";
import {
  type ApiKeyRecord,
  findOptionalActiveApiKeyByHash,
  findOptionalActiveApiKeyById,
} from "../repositories/api-keys";
import { insertBrowserSession, updateSignInCodeUsed } from "../repositories/browser-sessions";
import { invalidCredential } from "./verify-credential";

export interface SessionDeps {
  db: Kysely<Database>;
  clock: Clock;
  lifetimes: SessionLifetimes;
}

/**
 * Opens a browser session for the person holding an API key, or a one-time sign-in code issued for
 * one. The session acts with that key's organisation and role; only the hash of its token is kept.
 */
export async function createBrowserSession(
  { db, clock, lifetimes }: SessionDeps,
  input: CreateSessionInput,
): Promise<CreatedSession> {
  const now = clock();
  const key = "apiKey" in input ? await keyOf(db, input.apiKey) : await keyOfCode(db, input.signInCode, now);
  const token = newSessionToken();
  const session = {
    id: newId(),
    tokenHash: hashToken(token),
    organizationId: key.organizationId,
    apiKeyId: key.id,
    createdAt: now,
    expiresAt: addMs(now, lifetimes.absoluteMs),
  };
  await insertBrowserSession(db, session);
  return { token, sessionId: session.id, expiresAt: session.expiresAt.toISOString() };
}

export async function keyOf(db: Kysely<Database>, token: string): Promise<ApiKeyRecord> {
  const key = isTokenShaped(token) ? await findOptionalActiveApiKeyByHash(db, hashToken(token)) : undefined;
  if (!key) throw invalidCredential();
  return key;
}

async function keyOfCode(db: Kysely<Database>, code: string, now: Date): Promise<ApiKeyRecord> {
  const keyId = await updateSignInCodeUsed(db, hashToken(code), now);
  const key = keyId === undefined ? undefined : await findOptionalActiveApiKeyById(db, keyId);
  if (!key) throw signInCodeRefused();
  return key;
}

const signInCodeRefused = () =>
  new DomainError(
    "unauthenticated",
    "This sign-in link is not valid: it works once and only for a few minutes; restart the platform for a new one, or sign in with an API key",
  );
