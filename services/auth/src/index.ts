export { oauthEnvSchema, oauthLifetimesOf } from "./config";
export { type AuthDeps, registerAuthService } from "./service";
export { type BootstrapResult, ensureBootstrap } from "./use-cases/ensure-bootstrap";
