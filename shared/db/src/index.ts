export * from "./connect";
export * from "./from-env";
export * from "./idempotency";
export * from "./json";
export * from "./migrate";
export type * from "./schema";
export * from "./traces";
export * from "./unique-violation";
export * from "./unnest";
