import type { Logger } from "@svc/telemetry";
import * as oidc from "openid-client";
import type { OidcSettings } from "../config";

/** How long discovered metadata is trusted before it is fetched again (and at once after a failure). */
const DISCOVERY_MAX_AGE_MS = 10 * 60_000;
/** Seconds to wait for the provider, for discovery and every later request. */
const PROVIDER_TIMEOUT_S = 5;

/** What the person is told when a sign-in fails: a code the sign-in page turns into a sentence. */
export type SignInFailure =
  | "oidc_unavailable"
  | "oidc_expired"
  | "oidc_state"
  | "oidc_nonce"
  | "oidc_code_used"
  | "oidc_denied"
  | "oidc_no_email"
  | "oidc_unverified_email"
  | "oidc_not_a_member"
  | "oidc_rate_limited"
  | "oidc_failed";

/** A failure with its code for the page; what the provider said stays in the log, never in the answer. */
export class SingleSignOnError extends Error {
  constructor(
    readonly failure: SignInFailure,
    cause?: unknown,
  ) {
    super(failure, { cause });
  }
}

/**
 * The identity provider as openid-client sees it: discovered on first use, not at start (a provider
 * that is down must not keep the platform from starting), kept for a while, and fetched again after
 * any failure to reach it. openid-client keeps the provider's signing keys and fetches them again
 * when a token names a key it does not know, so that the provider may rotate its keys at any time.
 */
export class IdentityProvider {
  #discovered: { configuration: Promise<oidc.Configuration>; at: number } | undefined;

  constructor(
    readonly settings: OidcSettings,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The provider's configuration; `oidc_unavailable` when it cannot be discovered now. */
  async configuration(): Promise<oidc.Configuration> {
    const now = this.now();
    let discovered = this.#discovered;
    if (discovered === undefined || now - discovered.at > DISCOVERY_MAX_AGE_MS) {
      discovered = { configuration: this.#discover(), at: now };
      this.#discovered = discovered;
    }
    try {
      return await discovered.configuration;
    } catch (error) {
      this.forget();
      this.logger.warn(
        { issuer: this.settings.issuer.href, problem: describeFailure(error) },
        "the identity provider could not be discovered; single sign-on waits for it",
      );
      throw new SingleSignOnError("oidc_unavailable", error);
    }
  }

  /** Drops what was discovered, so that the next sign-in asks the provider again. */
  forget(): void {
    this.#discovered = undefined;
  }

  #discover(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    // Plain http is allowed by the configuration only on a loopback address (a provider run for tests).
    const execute = issuer.protocol === "http:" ? [oidc.allowInsecureRequests] : [];
    return oidc.discovery(issuer, clientId, undefined, oidc.ClientSecretBasic(clientSecret), {
      execute,
      timeout: PROVIDER_TIMEOUT_S,
    });
  }
}

/**
 * Says which way a callback failed, from what openid-client threw. A state that does not match, a
 * nonce that does not match and a code the provider refuses (used already, or expired) each get a
 * code of their own; a provider that cannot be reached or answers nonsense is unavailable.
 */
export function failureOf(error: unknown): SignInFailure {
  if (error instanceof SingleSignOnError) return error.failure;
  if (error instanceof oidc.AuthorizationResponseError) return "oidc_denied";
  if (error instanceof oidc.ResponseBodyError) {
    return error.error === "invalid_grant" ? "oidc_code_used" : "oidc_failed";
  }
  if (error instanceof oidc.ClientError) {
    const detail = error.cause instanceof Error ? error.cause.message : "";
    if (error.code === "OAUTH_INVALID_RESPONSE" && detail.includes('"state"')) return "oidc_state";
    if (error.code === "OAUTH_JWT_CLAIM_COMPARISON_FAILED" && detail.includes('"nonce"')) return "oidc_nonce";
    if (error.code === "OAUTH_RESPONSE_IS_NOT_CONFORM" || error.code === "OAUTH_RESPONSE_IS_NOT_JSON") {
      return "oidc_unavailable";
    }
    return "oidc_failed";
  }
  // fetch's own failures: the provider refused the connection, or did not answer in time.
  if (error instanceof TypeError || (error instanceof Error && error.name === "TimeoutError")) {
    return "oidc_unavailable";
  }
  return "oidc_failed";
}

/**
 * A failure for the log: its kind and codes, never its cause, which can hold the callback's
 * parameters (the authorization code) or the provider's whole answer.
 */
export function describeFailure(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { kind: typeof error };
  const described: Record<string, unknown> = { kind: error.name, message: error.message };
  if ("code" in error && typeof error.code === "string") described.code = error.code;
  if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError) {
    described.error = error.error;
  }
  return described;
}
