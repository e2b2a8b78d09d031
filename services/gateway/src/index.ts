export { buildGateway, type Gateway, type GatewayDeps } from "./app";
export { type GatewayOptions, gatewayOptionsSchema, requireOidcTogether } from "./config";
