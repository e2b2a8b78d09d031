export * from "./api.generated.js";
export {
  Client,
  type ClientOptions,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
} from "./client.js";
export { type ClientErrorCode, SvcError, type SvcErrorFields } from "./errors.js";
export {
  type CodeEvaluator,
  ExperimentsWithRunner,
  type RuleEvaluator,
  type RunOptions,
  type RunOutcome,
  type RunProgress,
  type ScoreValue,
  type TaskAnswer,
  taskAnswer,
} from "./experiments.js";
export {
  type DatasetImport,
  DatasetsWithFiles,
  type ExportFileOptions,
  type ImportFileBody,
  type ImportFileFormat,
  type ImportFileOptions,
} from "./files.js";
export type { WatchOptions } from "./live-changes.js";
export type { Page } from "./pagination.js";
export type { FetchLike, HttpMethod, RequestOptions } from "./transport.js";
