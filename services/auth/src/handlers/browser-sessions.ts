import type { Subscription } from "@svc/bus";
import {
  createSessionInputSchema,
  DomainError,
  emailSignInBodySchema,
  endSessionInputSchema,
  issueSignInCodeInputSchema,
  subjects,
  verifiedEmailInputSchema,
} from "@svc/contracts";
import { serveSubject } from "@svc/service";
import type { AuthDeps } from "../deps";
import { systemClock } from "../domain/oauth";
import { defaultSessionLifetimes } from "../domain/sessions";
import { createBrowserSession } from "../use-cases/create-browser-session";
import type { RevocationEvents } from "../use-cases/delete-api-key";
import { emailSignInLinks } from "../use-cases/email-sign-in-links";
import { endBrowserSession } from "../use-cases/end-browser-session";
import { issueSignInCode } from "../use-cases/issue-sign-in-code";
import { signInVerifiedEmail } from "../use-cases/sign-in-verified-email";
import { invalidCredential } from "../use-cases/verify-credential";
import { peopleDepsOf } from "./people-deps";

/** Internal subjects of browser sessions; the gateway turns HTTP and its cookie into these. */
export function serveBrowserSessions(authDeps: AuthDeps): Subscription[] {
  const { bus, db, logger, clock = systemClock, sessionLifetimes = defaultSessionLifetimes } = authDeps;
  const deps = { db, clock, lifetimes: sessionLifetimes };
  const people = peopleDepsOf(authDeps);
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
    serveSubject(bus, subjects.sessions.emailSignInLink, logger, async (request) => {
      const { email } = emailSignInBodySchema.parse(request.input);
      if (!people.mailer || people.publicUrl?.() === undefined) throw emailSignInUnavailable();
      // Answered before anything is looked up: how long the answer takes must not say whether the
      // address is a member's. Failures are logged, never answered, for the same reason.
      setImmediate(() => {
        emailSignInLinks(people, email).catch((error: unknown) =>
          logger.warn({ err: error }, "could not send sign-in links; the person may ask again"),
        );
      });
      return null;
    }),
    // Only the gateway asks, after the identity provider has verified the address (single sign-on).
    serveSubject(bus, subjects.sessions.verifiedEmail, logger, async (request) =>
      signInVerifiedEmail(deps, verifiedEmailInputSchema.parse(request.input).email),
    ),
  ];
}

const emailSignInUnavailable = () =>
  new DomainError(
    "not_found",
    "This platform sends no mail (it has no SVC_SMTP_URL), so it cannot e-mail sign-in links; sign in with an API key, or ask an owner or admin for an invitation link",
  );
