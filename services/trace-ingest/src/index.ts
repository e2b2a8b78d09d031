export type { TraceIngestDeps } from "./deps";
export { registerTraceIngest } from "./service";
