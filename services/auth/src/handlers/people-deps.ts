import { subjects } from "@svc/contracts";
import type { AuthDeps } from "../deps";
import { systemClock } from "../domain/oauth";
import { defaultSessionLifetimes } from "../domain/sessions";
import type { RevocationEvents } from "../use-cases/delete-api-key";
import type { PeopleDeps } from "../use-cases/people";

export const peopleDepsOf = (deps: AuthDeps): PeopleDeps => ({
  db: deps.db,
  logger: deps.logger,
  clock: deps.clock ?? systemClock,
  lifetimes: deps.sessionLifetimes ?? defaultSessionLifetimes,
  mailer: deps.mailer,
  publicUrl: deps.publicUrl,
});

/** Tells every gateway, once a change is committed, that credentials stopped working. */
export const revocationEventsOf = ({ bus }: AuthDeps): RevocationEvents => ({
  credentialRevoked: (event) => bus.publish(subjects.auth.credentialRevoked, event),
});
