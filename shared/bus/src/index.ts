export * from "./bus";
export * from "./calls";
export * from "./dependency-errors";
export * from "./from-env";
export * from "./in-process";
export * from "./nats";
export * from "./operations";
export * from "./uploads";
