import { type CheckAuthorizationInput, type CheckedAuthorization, oauthError } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { CODE_CHALLENGE, matchResource } from "../domain/oauth";
import { findOptionalOAuthClient } from "../repositories/oauth-clients";

/**
 * Checks an authorization request before the person sees the consent page, and again when they approve.
 * Problems with the client or its redirect URI are shown to the person and never redirected (RFC 6749
 * §4.1.2.1): sending them to an unverified address would make this server an open redirector.
 */
export async function checkAuthorization(
  db: Kysely<Database>,
  { request, resources }: CheckAuthorizationInput,
): Promise<CheckedAuthorization> {
  if (!request.client_id) throw oauthError("invalid_request", "The request has no client_id");
  const client = await findOptionalOAuthClient(db, request.client_id);
  if (!client) {
    throw oauthError(
      "invalid_request",
      "Unknown client_id; the application must register (POST /oauth/register) before it asks for access",
    );
  }
  if (!request.redirect_uri || !client.redirectUris.includes(request.redirect_uri)) {
    throw oauthError(
      "invalid_request",
      "The redirect_uri does not match any redirect URI this client registered; nothing was granted",
    );
  }
  const redirect = { redirect: true };
  if (request.response_type !== "code") {
    throw oauthError("unsupported_response_type", "Only response_type=code is supported", redirect);
  }
  if (!client.grantTypes.includes("authorization_code")) {
    throw oauthError("unauthorized_client", "This client did not register for authorization codes", redirect);
  }
  if (!request.code_challenge || request.code_challenge_method !== "S256") {
    throw oauthError(
      "invalid_request",
      "PKCE is required: send code_challenge with code_challenge_method=S256 (plain is not accepted)",
      redirect,
    );
  }
  if (!CODE_CHALLENGE.test(request.code_challenge)) {
    throw oauthError(
      "invalid_request",
      "code_challenge must be the base64url SHA-256 of the code verifier (43 characters)",
      redirect,
    );
  }
  const resource = request.resource === undefined ? undefined : matchResource(request.resource, resources);
  if (request.resource !== undefined && resource === undefined) {
    throw oauthError("invalid_target", `resource must be one of ${resources.join(", ")}`, redirect);
  }
  return {
    clientId: client.id,
    clientName: client.name,
    redirectUri: request.redirect_uri,
    codeChallenge: request.code_challenge,
    ...(request.state === undefined ? {} : { state: request.state }),
    ...(request.scope === undefined ? {} : { scope: request.scope }),
    ...(resource === undefined ? {} : { resource }),
  };
}
