export type { WriterDeps } from "./deps";
export { registerDatasetWriter } from "./service";
