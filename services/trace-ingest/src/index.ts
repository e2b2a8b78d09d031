export { registerTraceIngest, type TraceIngestDeps } from "./service";
