export { registerDatasetWriter, type WriterDeps } from "./service";
