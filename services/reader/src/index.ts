export type { ReaderDeps } from "./deps";
export { registerReader } from "./service";
