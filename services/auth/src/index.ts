export { oauthEnvSchema, oauthLifetimesOf, sessionEnvSchema, sessionLifetimesOf } from "./config";
export { type AuthDeps, registerAuthService } from "./service";
export { type BootstrapResult, ensureBootstrap } from "./use-cases/ensure-bootstrap";
