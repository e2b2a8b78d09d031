export { type ReaderDeps, registerReader } from "./service";
