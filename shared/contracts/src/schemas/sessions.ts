import { z } from "zod";
import { accountSchema } from "./auth";
import { timestampSchema } from "./common";
import { emailSchema } from "./members";

/**
 * Internal schemas of browser sessions: how the web application signs a person in. The gateway speaks
 * HTTP and keeps the session token in an HttpOnly cookie; `auth` owns the sessions and stores only
 * hashes. A session acts with the organisation and role of the API key it was opened with.
 */

export const SESSION_TOKEN_PREFIX = "svc_ss_";
export const SIGN_IN_CODE_PREFIX = "svc_sc_";

const secretSchema = z.string().min(1).max(512);

/** Open a session with an API key pasted once, or with a one-time sign-in code. */
export const createSessionInputSchema = z.union([
  z.strictObject({ apiKey: secretSchema }),
  z.strictObject({ signInCode: secretSchema }),
]);
export type CreateSessionInput = z.infer<typeof createSessionInputSchema>;

export const createdSessionSchema = z.object({
  /** Goes into the cookie; never to JavaScript. */
  token: z.string(),
  sessionId: z.string(),
  expiresAt: timestampSchema,
});
export type CreatedSession = z.infer<typeof createdSessionSchema>;

export const endSessionInputSchema = z.object({ token: secretSchema });

/** Issued to whoever holds an API key (the embedded process at start-up, for its owner key). */
export const issueSignInCodeInputSchema = z.object({ apiKey: secretSchema });
export const issuedSignInCodeSchema = z.object({ code: z.string(), expiresAt: timestampSchema });
export type IssuedSignInCode = z.infer<typeof issuedSignInCodeSchema>;

/** What `POST /v1/sessions` and `GET /v1/session` answer: the page needs the CSRF token and who it is. */
export const browserSessionSchema = accountSchema
  .pick({ organization: true, role: true, user: true })
  .extend({
    csrfToken: z
      .string()
      .describe("Send it as the X-CSRF-Token header on every write made with the session cookie"),
    expiresAt: timestampSchema.describe("When the session ends at the latest; it also ends when idle"),
    sessionId: z
      .string()
      .describe(
        'The session\'s id, as history names a session opened with a key (`actor: {kind: "session", id}`); a person\'s own session is named by its user (`actor: {kind: "user", id}`); not a credential',
      ),
  });
export type BrowserSession = z.infer<typeof browserSessionSchema>;

/** `POST /v1/session/email`: mail a sign-in link to this address, if it is a member's. */
export const emailSignInBodySchema = z.strictObject({ email: emailSchema });
export type EmailSignInBody = z.infer<typeof emailSignInBodySchema>;
/** The same answer whatever the address. */
export const emailSignInAnswerSchema = z.object({ message: z.string() });

/**
 * Single sign-on: the gateway has verified, with the identity provider, that the person holds this
 * address. `auth` answers a session when the address is a member of one organisation, or one sign-in
 * code per organisation when it is a member of several (as a mailed sign-in link does), for the person
 * to choose.
 */
export const verifiedEmailInputSchema = z.strictObject({ email: emailSchema });
export const verifiedEmailSignInSchema = z.union([
  z.strictObject({ session: createdSessionSchema }),
  z.strictObject({
    choices: z.array(z.strictObject({ organizationName: z.string(), signInCode: z.string() })).min(2),
  }),
]);
export type VerifiedEmailSignIn = z.infer<typeof verifiedEmailSignInSchema>;
