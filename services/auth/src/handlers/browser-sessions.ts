import { type Subscription, serveSubject } from "@svc/bus";
import {
  createSessionInputSchema,
  endSessionInputSchema,
  issueSignInCodeInputSchema,
  subjects,
} from "@svc/contracts";
import { systemClock } from "../domain/oauth";
import { defaultSessionLifetimes } from "../domain/sessions";
import type { AuthDeps } from "../service";
import { createBrowserSession } from "../use-cases/create-browser-session";
import type { RevocationEvents } from "../use-cases/delete-api-key";
import { endBrowserSession } from "../use-cases/end-browser-session";
import { issueSignInCode } from "../use-cases/issue-sign-in-code";
import { invalidCredential } from "../use-cases/verify-credential";

/** Internal subjects of browser sessions; the gateway turns HTTP and its cookie into these. */
export function serveBrowserSessions({
  bus,
  db,
  logger,
  clock = systemClock,
  sessionLifetimes = defaultSessionLifetimes,
}: AuthDeps): Subscription[] {
  const deps = { db, clock, lifetimes: sessionLifetimes };
  const events: RevocationEvents = {
    credentialRevoked: (event) => bus.publish(subjects.auth.credentialRevoked, event),
  };
  return [
    serveSubject(bus, subjects.sessions.create, logger, async (request) => {
      // Whatever is wrong with what was pasted, the person learns only that it does not sign them in.
      const input = createSessionInputSchema.safeParse(request.input);
      if (!input.success) throw invalidCredential();
      return createBrowserSession(deps, input.data);
    }),
    serveSubject(bus, subjects.sessions.end, logger, async (request) =>
      endBrowserSession({ db, clock, events }, endSessionInputSchema.parse(request.input).token),
    ),
    serveSubject(bus, subjects.sessions.issueSignInCode, logger, async (request) => {
      const input = issueSignInCodeInputSchema.safeParse(request.input);
      if (!input.success) throw invalidCredential();
      return issueSignInCode(deps, input.data.apiKey);
    }),
  ];
}
