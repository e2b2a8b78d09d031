import { createHash, randomBytes } from "node:crypto";
import { API_KEY_PREFIX } from "@svc/contracts";

/** The longest token `verifyCredentialInputSchema` accepts: a longer one could never be verified. */
const MAX_TOKEN_LENGTH = 512;

/** A new API key token: the prefix and 32 random bytes, base64url (256 bits of entropy). */
export const newToken = (): string => `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;

/** Only this is stored: a leaked database must not leak working keys. */
export const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex");

export const lastFourOf = (token: string): string => token.slice(-4);

export const maskToken = (lastFour: string): string => `${API_KEY_PREFIX}…${lastFour}`;

/**
 * True when the string could be a token this service issued or accepted as a bootstrap key: the
 * prefix, then printable characters without spaces (a bearer header could not carry those).
 */
export const isTokenShaped = (token: string): boolean =>
  token.length > API_KEY_PREFIX.length &&
  token.length <= MAX_TOKEN_LENGTH &&
  token.startsWith(API_KEY_PREFIX) &&
  /^[\x21-\x7e]+$/.test(token);
