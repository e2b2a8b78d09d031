export * from "./bus";
export * from "./calls";
export * from "./from-env";
export * from "./in-process";
export * from "./nats";
export * from "./nats-servers";
export * from "./operation-input";
export * from "./uploads";
