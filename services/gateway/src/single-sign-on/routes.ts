import { type Bus, callSubject } from "@svc/bus";
import { DomainError, subjects, verifiedEmailSignInSchema } from "@svc/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import * as oidc from "openid-client";
import { anonymousCaller, browserCookie, setSessionCookie } from "../auth";
import type { RateLimiter } from "../rate-limit";
import { describeFailure, failureOf, type IdentityProvider, SingleSignOnError } from "./identity-provider";

export interface SingleSignOnDeps {
  bus: Bus;
  provider: IdentityProvider;
  timeoutMs: number;
  rateLimiter: RateLimiter;
  publicUrl: (request: FastifyRequest) => string;
  clientAddress: (request: FastifyRequest) => string;
}

/** Where the provider sends the browser back; registered with the provider as the redirect URI. */
export const CALLBACK_PATH = "/v1/session/oidc/callback";
/** Long enough to sign in at the provider, short enough that a forgotten attempt does not linger. */
const ATTEMPT_MAX_AGE_S = 600;
const COOKIE = "svc_oidc";
const SECURE_COOKIE = "__Host-svc_oidc";
/** Where a person lands once signed in, unless the sign-in page asked for another page of the application. */
const LANDING = "/projects";

/**
 * Single sign-on with an OpenID Connect provider, as a confidential client using the authorization
 * code flow with PKCE, `state` and `nonce`. The three secrets of an attempt live only in an HttpOnly
 * cookie of the browser that started it, for ten minutes, and are cleared by the callback whatever
 * its outcome: an attempt is checked once, and only in the browser that started it. Every failure
 * sends the browser back to the sign-in page with a code it turns into a sentence.
 */
export async function singleSignOnRoutes(app: FastifyInstance, deps: SingleSignOnDeps): Promise<void> {
  app.get("/v1/session/oidc", async (request, reply) => {
    try {
      const decision = await deps.rateLimiter.checkClientIp(deps.clientAddress(request));
      if (!decision.allowed) throw new SingleSignOnError("oidc_rate_limited");
      const configuration = await deps.provider.configuration();
      const attempt = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier: oidc.randomPKCECodeVerifier(),
        next: landingOf((request.query as Record<string, unknown> | undefined)?.next),
      };
      const publicUrl = deps.publicUrl(request);
      const authorization = oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: `${publicUrl}${CALLBACK_PATH}`,
        scope: "openid email profile",
        response_type: "code",
        state: attempt.state,
        nonce: attempt.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(attempt.verifier),
        code_challenge_method: "S256",
      });
      setAttemptCookie(reply, publicUrl, attemptValue(attempt), ATTEMPT_MAX_AGE_S);
      return redirect(reply, authorization.href);
    } catch (error) {
      return failed(request, reply, error);
    }
  });

  app.get(CALLBACK_PATH, async (request, reply) => {
    const publicUrl = deps.publicUrl(request);
    // One check per attempt, whatever its outcome: the next try starts again at the provider.
    setAttemptCookie(reply, publicUrl, "", 0);
    // The callback's address holds the code: no page it leads to may pass it on as a referrer.
    reply.header("referrer-policy", "no-referrer");
    try {
      const attempt = attemptOf(request.cookies[cookieName(publicUrl)]);
      const email = await verifiedEmailOf(deps.provider, new URL(request.url, publicUrl), publicUrl, attempt);
      const signIn = verifiedEmailSignInSchema.parse(
        await callSubject(
          deps.bus,
          subjects.sessions.verifiedEmail,
          { context: anonymousCaller(request), input: { email } },
          { timeoutMs: deps.timeoutMs },
        ).catch((error: unknown) => {
          if (error instanceof DomainError && error.code === "unauthenticated") {
            throw new SingleSignOnError("oidc_not_a_member");
          }
          throw error;
        }),
      );
      if ("choices" in signIn) {
        // A member of several organisations chooses, as with the links a mailed sign-in sends: one
        // single-use code each, in the fragment, which no server log sees.
        const choices = Buffer.from(JSON.stringify(signIn.choices)).toString("base64url");
        const next = attempt.next === LANDING ? "" : `?next=${encodeURIComponent(attempt.next)}`;
        return redirect(reply, `/sign-in${next}#organizations=${choices}`);
      }
      setSessionCookie(reply, publicUrl, signIn.session.token, signIn.session.expiresAt);
      return redirect(reply, attempt.next);
    } catch (error) {
      return failed(request, reply, error);
    }
  });

  /** Back to the sign-in page with the failure's code; the provider's own words go to the log only. */
  function failed(request: FastifyRequest, reply: FastifyReply, error: unknown) {
    const failure = failureOf(error);
    if (failure === "oidc_unavailable") deps.provider.forget();
    const cause = error instanceof SingleSignOnError ? error.cause : error;
    request.log.warn(
      { requestId: request.id, failure, ...(cause === undefined ? {} : { problem: describeFailure(cause) }) },
      "single sign-on did not sign the person in",
    );
    return redirect(reply, `/sign-in?error=${failure}`);
  }
}

/** The code's exchange and the checks of the ID token; then the address, which must be verified. */
async function verifiedEmailOf(
  provider: IdentityProvider,
  callbackUrl: URL,
  publicUrl: string,
  attempt: Attempt,
): Promise<string> {
  const configuration = await provider.configuration();
  const tokens = await oidc.authorizationCodeGrant(
    configuration,
    callbackUrl,
    {
      expectedState: attempt.state,
      expectedNonce: attempt.nonce,
      pkceCodeVerifier: attempt.verifier,
      idTokenExpected: true,
    },
    { redirect_uri: `${publicUrl}${CALLBACK_PATH}` },
  );
  const idToken = tokens.claims();
  if (idToken === undefined) throw new SingleSignOnError("oidc_failed");
  let claims: Record<string, unknown> = idToken;
  // Many providers put the address only in the UserInfo answer to a code flow; it must be the same person.
  if (claims.email === undefined || claims.email_verified === undefined) {
    claims = { ...(await oidc.fetchUserInfo(configuration, tokens.access_token, idToken.sub)), ...idToken };
  }
  if (typeof claims.email !== "string" || claims.email === "") throw new SingleSignOnError("oidc_no_email");
  if (claims.email_verified !== true) throw new SingleSignOnError("oidc_unverified_email");
  return claims.email.trim().toLowerCase();
}

interface Attempt {
  state: string;
  nonce: string;
  verifier: string;
  /** The page of this application to open once signed in. */
  next: string;
}

const attemptValue = ({ state, nonce, verifier, next }: Attempt) =>
  `${state}.${nonce}.${verifier}.${Buffer.from(next).toString("base64url")}`;

/** The attempt this browser started; `oidc_expired` when there is none (too late, or another browser). */
function attemptOf(value: string | undefined): Attempt {
  const [state, nonce, verifier, next, ...rest] = value?.split(".") ?? [];
  if (!state || !nonce || !verifier || next === undefined || rest.length > 0) {
    throw new SingleSignOnError("oidc_expired");
  }
  return { state, nonce, verifier, next: landingOf(Buffer.from(next, "base64url").toString("utf8")) };
}

/** A path of this application only (as the sign-in page's `next`), never another site; else the default. */
function landingOf(next: unknown): string {
  const isPath =
    typeof next === "string" &&
    next.length <= 1_000 &&
    // Printable ASCII only, as an address bar sends it (percent-encoded): nothing a header cannot carry.
    /^\/[!-~]*$/.test(next) &&
    !next.startsWith("//") &&
    !next.includes("\\");
  return isPath ? next : LANDING;
}

const cookieName = (publicUrl: string) => (publicUrl.startsWith("https:") ? SECURE_COOKIE : COOKIE);

/**
 * `SameSite=Lax`: the provider sends the browser back with a top-level GET from its own site, which
 * Lax lets the cookie ride on, while no other site's request or form can.
 */
function setAttemptCookie(
  reply: FastifyReply,
  publicUrl: string,
  value: string,
  maxAgeSeconds: number,
): void {
  reply.setCookie(cookieName(publicUrl), value, browserCookie(publicUrl, maxAgeSeconds));
}

function redirect(reply: FastifyReply, location: string) {
  return reply.header("cache-control", "no-store").redirect(location, 302);
}
