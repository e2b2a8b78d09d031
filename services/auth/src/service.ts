import { unsubscribeAll } from "@svc/bus";
import { pruneIdempotencyRecords } from "@svc/db";
import type { AuthDeps } from "./deps";
import { systemClock } from "./domain/oauth";
import { serveAccount } from "./handlers/account";
import { serveApiKeys } from "./handlers/api-keys";
import { serveBrowserSessions } from "./handlers/browser-sessions";
import { serveCredentials } from "./handlers/credentials";
import { serveMembers } from "./handlers/members";
import { serveOAuth } from "./handlers/oauth";
import { serveOrganizations } from "./handlers/organizations";
import { serveProjects } from "./handlers/projects";
import { serveUsers } from "./handlers/users";
import { deleteExpiredSignInCodes } from "./repositories/browser-sessions";

/**
 * Serves organisations, keys, members, projects and credential checks on the bus, and prunes expired
 * idempotency records. Returns a handle that stops both.
 */
export function registerAuth(deps: AuthDeps): { stop(): void } {
  const subscriptions = [
    ...serveCredentials(deps),
    ...serveOrganizations(deps),
    ...serveAccount(deps),
    ...serveApiKeys(deps),
    ...serveProjects(deps),
    ...serveMembers(deps),
    ...serveOAuth(deps),
    ...serveBrowserSessions(deps),
    ...serveUsers(deps),
  ];
  const pruning = keepPruningIdempotencyRecords(deps);
  return {
    stop: () => {
      clearInterval(pruning);
      unsubscribeAll(subscriptions);
    },
  };
}

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Idempotency records past their retention are deleted now and every hour after. They must not stay
 * longer: a createApiKey record holds the token it answered with (docs/decisions/0002). Expired
 * sign-in codes go too. Browser sessions stay: they say which key each session's changes came from.
 */
function keepPruningIdempotencyRecords({ db, logger, clock = systemClock }: AuthDeps): NodeJS.Timeout {
  const prune = () => {
    pruneIdempotencyRecords(db, clock()).catch((error: unknown) =>
      logger.warn({ err: error }, "could not prune idempotency records; retrying within the hour"),
    );
    deleteExpiredSignInCodes(db, clock()).catch((error: unknown) =>
      logger.warn({ err: error }, "could not delete expired sign-in codes; retrying within the hour"),
    );
  };
  prune();
  return setInterval(prune, PRUNE_EVERY_MS).unref();
}
