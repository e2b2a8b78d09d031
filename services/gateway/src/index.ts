export { buildGateway, type Gateway, type GatewayDeps } from "./app";
export { type GatewayOptions, gatewayOptionsSchema } from "./config";
