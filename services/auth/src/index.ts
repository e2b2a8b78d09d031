export {
  mailEnvSchema,
  mailFromOf,
  oauthEnvSchema,
  oauthLifetimesOf,
  sessionEnvSchema,
  sessionLifetimesOf,
} from "./config";
export type { AuthDeps } from "./deps";
export { type Mailer, smtpMailer } from "./mail/mailer";
export { registerAuth } from "./service";
export { openSessionForVerifiedEmail } from "./use-cases/create-browser-session";
export { type BootstrapResult, ensureBootstrap } from "./use-cases/ensure-bootstrap";
