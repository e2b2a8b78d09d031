import type { Subscription } from "@svc/bus";
import {
  approveAuthorizationInputSchema,
  checkAuthorizationInputSchema,
  oauthClientMetadataSchema,
  oauthError,
  revokeTokenInputSchema,
  subjects,
  tokenInputSchema,
  validationError,
} from "@svc/contracts";
import { serveSubject } from "@svc/service";
import type { z } from "zod";
import type { AuthDeps } from "../deps";
import { defaultOAuthLifetimes, systemClock } from "../domain/oauth";
import { approveAuthorization } from "../use-cases/approve-authorization";
import { checkAuthorization } from "../use-cases/check-authorization";
import type { RevocationEvents } from "../use-cases/delete-api-key";
import { exchangeOAuthToken } from "../use-cases/exchange-oauth-token";
import { registerOAuthClient } from "../use-cases/register-oauth-client";
import { revokeOAuthToken } from "../use-cases/revoke-oauth-token";

/** Internal subjects of the OAuth authorization server; the gateway turns HTTP into these and back. */
export function serveOAuth({
  bus,
  db,
  logger,
  clock = systemClock,
  oauthLifetimes = defaultOAuthLifetimes,
}: AuthDeps): Subscription[] {
  const events: RevocationEvents = {
    credentialRevoked: (event) => bus.publish(subjects.auth.credentialRevoked, event),
  };
  return [
    serveSubject(bus, subjects.oauth.registerClient, logger, async (request) => {
      const metadata = oauthClientMetadataSchema.safeParse(request.input);
      if (!metadata.success) {
        const problem = validationError(metadata.error.issues, [], "Client metadata");
        const redirectIssue = metadata.error.issues.some((issue) => issue.path[0] === "redirect_uris");
        throw oauthError(redirectIssue ? "invalid_redirect_uri" : "invalid_client_metadata", problem.message);
      }
      return registerOAuthClient(db, clock, metadata.data);
    }),
    serveSubject(bus, subjects.oauth.checkAuthorization, logger, async (request) =>
      checkAuthorization(db, parse(checkAuthorizationInputSchema, request.input)),
    ),
    serveSubject(bus, subjects.oauth.approveAuthorization, logger, async (request) =>
      approveAuthorization(
        { db, clock, lifetimes: oauthLifetimes },
        parse(approveAuthorizationInputSchema, request.input),
      ),
    ),
    serveSubject(bus, subjects.oauth.token, logger, async (request) =>
      exchangeOAuthToken(
        { db, clock, events, lifetimes: oauthLifetimes },
        parse(tokenInputSchema, request.input),
      ),
    ),
    serveSubject(bus, subjects.oauth.revoke, logger, async (request) =>
      revokeOAuthToken({ db, clock, events }, parse(revokeTokenInputSchema, request.input)),
    ),
  ];
}

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw oauthError("invalid_request", validationError(result.error.issues, [], "The request").message);
  }
  return result.data;
}
