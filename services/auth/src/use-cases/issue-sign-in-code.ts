import type { IssuedSignInCode } from "@svc/contracts";
import { addMs } from "../domain/oauth";
import { newSignInCode } from "../domain/sessions";
import { hashToken } from "../domain/tokens";
import { insertSignInCode } from "../repositories/browser-sessions";
import type { SessionDeps } from "./create-browser-session";
import { keyOf } from "./create-browser-session";

/**
 * A single-use code that opens a session for the holder of `apiKey`: the embedded platform prints a
 * link with one at start-up, so that the first visit needs no copying of keys.
 */
export async function issueSignInCode(
  { db, clock, lifetimes }: SessionDeps,
  apiKey: string,
): Promise<IssuedSignInCode> {
  const key = await keyOf(db, apiKey);
  const code = newSignInCode();
  const now = clock();
  const expiresAt = addMs(now, lifetimes.signInCodeMs);
  await insertSignInCode(db, { codeHash: hashToken(code), apiKeyId: key.id, createdAt: now, expiresAt });
  return { code, expiresAt: expiresAt.toISOString() };
}
