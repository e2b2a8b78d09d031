export {
  mailEnvSchema,
  mailFromOf,
  oauthEnvSchema,
  oauthLifetimesOf,
  sessionEnvSchema,
  sessionLifetimesOf,
} from "./config";
export { type Mailer, smtpMailer } from "./mail/mailer";
export { type AuthDeps, registerAuth } from "./service";
export { openSessionForVerifiedEmail } from "./use-cases/create-browser-session";
export { type BootstrapResult, ensureBootstrap } from "./use-cases/ensure-bootstrap";
