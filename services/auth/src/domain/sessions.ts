import { randomBytes } from "node:crypto";
import { type CredentialRevokedEvent, SESSION_TOKEN_PREFIX, SIGN_IN_CODE_PREFIX } from "@svc/contracts";

/** How long a browser session and a sign-in code last, in milliseconds. */
export interface SessionLifetimes {
  /** A session unused for this long ends: a browser left open on a shared machine stops working. */
  idleMs: number;
  /** A session ends this long after it began, however much it is used. */
  absoluteMs: number;
  /** A sign-in link is for the person starting the platform now, not a standing credential. */
  signInCodeMs: number;
  /** An invitation waits for its person longer: they may be away for days. */
  invitationMs: number;
}

export const defaultSessionLifetimes: SessionLifetimes = {
  idleMs: 8 * 60 * 60_000,
  absoluteMs: 7 * 24 * 60 * 60_000,
  signInCodeMs: 15 * 60_000,
  invitationMs: 7 * 24 * 60 * 60_000,
};

const secret = (prefix: string): string => `${prefix}${randomBytes(32).toString("base64url")}`;

export const newSessionToken = (): string => secret(SESSION_TOKEN_PREFIX);
export const newSignInCode = (): string => secret(SIGN_IN_CODE_PREFIX);

/** What gateways hear when a session ends: the actor of every request it made. */
export const sessionEnded = (sessionId: string): CredentialRevokedEvent => ({
  actor: { kind: "session", id: sessionId },
});
