import type { Bus } from "@svc/bus";
import type { Database } from "@svc/db";
import type { Logger } from "@svc/telemetry";
import type { Kysely } from "kysely";
import type { Clock, OAuthLifetimes } from "./domain/oauth";
import type { SessionLifetimes } from "./domain/sessions";
import type { Mailer } from "./mail/mailer";

export interface AuthDeps {
  bus: Bus;
  db: Kysely<Database>;
  logger: Logger;
  /** What "now" is for token expiry; tests move it. */
  clock?: Clock;
  /** How long OAuth codes and tokens last; the defaults when unset. */
  oauthLifetimes?: OAuthLifetimes;
  /** How long browser sessions last; the defaults when unset. */
  sessionLifetimes?: SessionLifetimes;
  /** Sends invitations and sign-in links; undefined when the platform has no SVC_SMTP_URL. */
  mailer?: Mailer | undefined;
  /**
   * Where links in mail point (SVC_PUBLIC_URL): a function, because the embedded process learns its
   * own address only once it listens.
   */
  publicUrl?: (() => string | undefined) | undefined;
}
