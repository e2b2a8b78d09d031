import {
  browserSessionSchema,
  createSessionInputSchema,
  emailSignInAnswerSchema,
  emailSignInBodySchema,
} from "../schemas/sessions";
import { subjects } from "../subjects";
import { defineOperation } from "./define";

/*
 * The web application's session (decision 0011): the browser's way in, served by the gateway itself,
 * which keeps the session token in an HttpOnly cookie. Only the web application calls these, through
 * the TypeScript SDK; they are neither CLI commands, MCP tools nor methods of the Python SDK.
 * Single sign-on (`GET /v1/session/oidc` and its callback) is not here: it is a navigation of the
 * browser through the identity provider, answered with redirects, not a call.
 */

export const createSession = defineOperation({
  operationId: "createSession",
  command: "create",
  method: "POST",
  path: "/v1/sessions",
  tag: "sessions",
  summary: "Sign the browser in with an API key or a one-time sign-in code",
  description:
    "Answers who is signed in and the session's CSRF token, and sets the session cookie (HttpOnly, SameSite=Lax, `Secure` and named `__Host-svc_session` behind HTTPS) until the session's end; neither the key nor the session token reaches the page. A sign-in code comes from a sign-in link (an invitation, an e-mailed link, the embedded platform's first start) and works once. A request with an `Origin` must come from the platform's own. Limited per client address.",
  subject: subjects.sessions.create,
  access: "viewer",
  browserSession: { credential: "none" },
  body: createSessionInputSchema,
  bodyExamples: { apiKey: { summary: "Sign in with an API key", value: { apiKey: "svc_…" } } },
  response: browserSessionSchema,
  successStatus: 201,
});

export const getSession = defineOperation({
  operationId: "getSession",
  command: "get",
  method: "GET",
  path: "/v1/session",
  tag: "sessions",
  summary: "Who is signed in, and the session's CSRF token",
  description:
    "A page asks it as it loads: the CSRF token lives in the page's memory only. 401 when the browser holds no session, or one that ended.",
  // The gateway asks `auth` whose session the cookie holds, then this: the session's account.
  subject: subjects.account.get,
  access: "viewer",
  browserSession: { credential: "cookie" },
  response: browserSessionSchema,
  successStatus: 200,
});

export const deleteSession = defineOperation({
  operationId: "deleteSession",
  command: "delete",
  method: "DELETE",
  path: "/v1/session",
  tag: "sessions",
  summary: "Sign the browser out",
  description:
    "Ends the session at every gateway and clears its cookie. Needs the session's `X-CSRF-Token` and the platform's own `Origin`, as every write made with the cookie does.",
  subject: subjects.sessions.end,
  access: "viewer",
  browserSession: { credential: "cookie" },
  response: null,
  successStatus: 204,
});

export const emailSignInLink = defineOperation({
  operationId: "emailSignInLink",
  command: "email-link",
  method: "POST",
  path: "/v1/session/email",
  tag: "sessions",
  summary: "E-mail a one-time sign-in link to a member",
  description:
    "The same 202 whether or not the address is a member's: whether it is, and the mail, are decided after the answer. The link works once, within 15 minutes. Limited per client address and per address.",
  subject: subjects.sessions.emailSignInLink,
  access: "viewer",
  browserSession: { credential: "none" },
  body: emailSignInBodySchema,
  response: emailSignInAnswerSchema,
  successStatus: 202,
  errors: ["not_found"],
});
