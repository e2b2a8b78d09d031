import type { Operation } from "../operation";
import * as auth from "./auth";
import * as datasets from "./datasets/index";
import * as experiments from "./experiments";
import * as members from "./members";
import * as modelPrices from "./model-prices";
import * as sessions from "./sessions";
import * as traces from "./traces";

export * from "./auth";
export * from "./datasets/index";
export * from "./experiments";
export * from "./members";
export * from "./model-prices";
export * from "./sessions";
export * from "./traces";

/** Every operation of the public API, keyed by operationId. */
export const operations = {
  ...auth,
  ...datasets,
  ...experiments,
  ...members,
  ...modelPrices,
  ...sessions,
  ...traces,
} as const;
export type OperationId = keyof typeof operations;
export const operationList: readonly Operation[] = Object.values(operations);
