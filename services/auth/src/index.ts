export { oauthEnvSchema, oauthLifetimesOf, sessionEnvSchema, sessionLifetimesOf } from "./config";
export { type AuthDeps, registerAuth } from "./service";
export { type BootstrapResult, ensureBootstrap } from "./use-cases/ensure-bootstrap";
