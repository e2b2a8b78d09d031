/**
 * How a request gets into the gateway: its credential (a bearer API key or OAuth access token, or
 * the web application's session cookie), the Origin and CSRF checks of a cookie's writes, the caller
 * it becomes, and the challenge a refused one gets. Every surface comes in through here.
 */
export { bearerChallenge, MCP_PATH, RESOURCE_METADATA_PATH } from "./bearer-challenge";
export { anonymousCaller, bearerToken, GatewayAuth } from "./caller";
export { CredentialCache } from "./credential-cache";
export { assertOwnOrigin, assertSameSiteWrite, refuseForeignOrigin } from "./same-site";
export { browserCookie, clearSessionCookie, csrfTokenOf, setSessionCookie } from "./session-cookie";
