// Generated from shared/contracts/openapi.json by sdks/scripts/generate.mjs; do not edit.
// Regenerate with `npm run generate --workspace @svc/sdk` after `npm run openapi`.

import { paginate, withCursor } from "./pagination.js";
import { encodePath, type RequestOptions, type Transport } from "./transport.js";

// Schemas

/** Who made a change: an API key, an OAuth grant (an agent's connection a person approved), a browser session opened with a key, or a person (a user signed in as themselves) */
export type Actor = {
  kind: "apiKey" | "oauth" | "session" | "user";
  id: string;
  /** For a user: their name as it is now (a rename shows on everything they changed) */
  name?: string;
};

export type ApiKey = {
  id: string;
  name: string;
  role: Role;
  /** The token with all but its last four characters hidden */
  maskedToken: string;
  /** ISO-8601 timestamp in UTC */
  createdAt: string;
  lastUsedAt: string | null;
  /** The person who made the key (their name as it is now); null for a key made by a key or at start-up */
  createdBy: {
    id: string;
    name: string;
  } | null;
};

export type BrowserSession = {
  organization: {
    id: string;
    name: string;
    slug: string;
  };
  role: Role;
  /** The person behind the credential: a person's session, or the one who made the key; null for a key made by no person */
  user: {
    id: string;
    /** Lower-case; null for the first owner of a fresh installation until they set one */
    email: string | null;
    name: string;
  } | null;
  /** Send it as the X-CSRF-Token header on every write made with the session cookie */
  csrfToken: string;
  /** When the session ends at the latest; it also ends when idle */
  expiresAt: string;
  /** The session's id, as history names a session opened with a key (`actor: {kind: "session", id}`); a person's own session is named by its user (`actor: {kind: "user", id}`); not a credential */
  sessionId: string;
};

export type Cell = string | number | boolean | null | Cell[] | { [key: string]: Cell };

export type CreatedApiKey = {
  id: string;
  name: string;
  role: Role;
  /** The token with all but its last four characters hidden */
  maskedToken: string;
  /** ISO-8601 timestamp in UTC */
  createdAt: string;
  lastUsedAt: string | null;
  /** The person who made the key (their name as it is now); null for a key made by a key or at start-up */
  createdBy: {
    id: string;
    name: string;
  } | null;
  /** The full token, shown in this answer only: store it now. null when tokenAlreadyShown is true: the token is not kept anywhere, so no later answer can give it */
  token: string | null;
  /** true when this answer replays an earlier one (the same Idempotency-Key and body): the key was created by that request and its token shown in that answer only. If that answer was lost, revoke this key (by its id) and create another */
  tokenAlreadyShown: boolean;
};

export type Dataset = {
  id: string;
  organizationId: string;
  projectId: string;
  slug: string;
  name: string;
  description: string | null;
  columns: DatasetColumn[];
  version: number;
  /** Rows the dataset has at its current version (exact) */
  rows: number;
  /** ISO-8601 timestamp in UTC */
  createdAt: string;
  /** ISO-8601 timestamp in UTC */
  updatedAt: string;
};

export type DatasetColumn = {
  identifier: string;
  name: string;
  source: {
    kind: "builtin";
    field: "input" | "output" | "expectedOutput" | "metadata";
  } | {
    kind: "custom";
  };
  removed?: boolean;
};

export type DatasetRow = {
  rowId: string;
  datasetId: string;
  input?: Cell;
  output?: Cell;
  expectedOutput?: Cell;
  metadata?: Cell;
  custom: { [key: string]: Cell };
  /** ISO-8601 timestamp in UTC */
  createdAt: string;
  version: number;
};

export type DatasetVersion = {
  versionId: string;
  version: number;
  /** ISO-8601 timestamp in UTC */
  createdAt: string;
  operation: "insert" | "update" | "delete" | "import" | "restore";
  rowsInserted: number;
  rowsUpdated: number;
  rowsDeleted: number;
  /** Rows the dataset has at this version (exact) */
  rows: number;
  actor: Actor;
};

/** A new dataset version, as the dataset's live changes announce it */
export type DatasetVersionEvent = {
  version: number;
  versionId: string;
  /** ISO-8601 timestamp in UTC */
  createdAt: string;
  operation: "insert" | "update" | "delete" | "import" | "restore";
  actor: Actor;
  rowsInserted: number;
  rowsUpdated: number;
  rowsDeleted: number;
  /** The rows the version changed (inserted, edited or deleted), by row id, at most 100 */
  rowIds: string[];
  /** True when the version changed more than 100 rows and `rowIds` names only some of them: read the version's diff for all */
  rowIdsTruncated: boolean;
};

export type ApiError = {
  error: string;
  code: "validation_failed" | "unknown_column" | "unknown_row" | "too_many_columns" | "unauthenticated" | "forbidden" | "not_found" | "conflict" | "idempotency_key_reused" | "version_mismatch" | "payload_too_large" | "unsupported_media_type" | "too_many_traces" | "rate_limited" | "internal_error" | "service_unavailable" | "outcome_unknown" | "upstream_timeout";
  requestId: string;
  details?: { [key: string]: unknown };
};

/** A rule the platform applies to each result as it is recorded, comparing `output` with the row's `expectedOutput` (or `expected`). exact_match, json_equal, contains, regex, json_schema and numeric_close give a boolean; levenshtein a similarity from 0 to 1. A result with an error, or without the expected value a rule needs, gets no score from it. */
export type Evaluator = {
  /** The name of the score this evaluator gives */
  name: string;
  /** Compare with this value instead of the row's expectedOutput (at the experiment's version) */
  expected?: Cell;
  kind: "exact_match";
  /** Compare letters' case too (default true) */
  caseSensitive: boolean;
  /** Ignore white space at both ends (default false) */
  trim: boolean;
} | {
  /** The name of the score this evaluator gives */
  name: string;
  /** Compare with this value instead of the row's expectedOutput (at the experiment's version) */
  expected?: Cell;
  kind: "json_equal";
} | {
  /** The name of the score this evaluator gives */
  name: string;
  /** Compare with this value instead of the row's expectedOutput (at the experiment's version) */
  expected?: Cell;
  kind: "contains";
  /** The text the output must contain; the expected output's text when left out */
  value?: string;
  /** Compare letters' case too (default true) */
  caseSensitive: boolean;
} | {
  /** The name of the score this evaluator gives */
  name: string;
  kind: "regex";
  /** RE2 syntax: matching takes linear time */
  pattern: string;
  /** i (ignore case), m (multi-line), s (dot matches new lines) */
  flags: string;
} | {
  /** The name of the score this evaluator gives */
  name: string;
  kind: "json_schema";
  /** A JSON Schema (draft 2020-12 or 07) the output must satisfy */
  schema: { [key: string]: unknown };
} | {
  /** The name of the score this evaluator gives */
  name: string;
  /** Compare with this value instead of the row's expectedOutput (at the experiment's version) */
  expected?: Cell;
  kind: "numeric_close";
  /** Largest absolute difference that passes */
  tolerance: number;
  /** Largest difference, as a share of the expected value, that passes */
  relativeTolerance: number;
} | {
  /** The name of the score this evaluator gives */
  name: string;
  /** Compare with this value instead of the row's expectedOutput (at the experiment's version) */
  expected?: Cell;
  kind: "levenshtein";
  /** Compare letters' case too (default true) */
  caseSensitive: boolean;
};

/** A rule the platform applies to each result as it is recorded, comparing `output` with the row's `expectedOutput` (or `expected`). exact_match, json_equal, contains, regex, json_schema and numeric_close give a boolean; levenshtein a similarity from 0 to 1. A result with an error, or without the expected value a rule needs, gets no score from it. */
export type EvaluatorInput = {
  /** The name of the score this evaluator gives */
  name: string;
  /** Compare with this value instead of the row's expectedOutput (at the experiment's version) */
  expected?: Cell;
  kind: "exact_match";
  /** Compare letters' case too (default true) */
  caseSensitive?: boolean;
  /** Ignore white space at both ends (default false) */
  trim?: boolean;
} | {
  /** The name of the score this evaluator gives */
  name: string;
  /** Compare with this value instead of the row's expectedOutput (at the experiment's version) */
  expected?: Cell;
  kind: "json_equal";
} | {
  /** The name of the score this evaluator gives */
  name: string;
  /** Compare with this value instead of the row's expectedOutput (at the experiment's version) */
  expected?: Cell;
  kind: "contains";
  /** The text the output must contain; the expected output's text when left out */
  value?: string;
  /** Compare letters' case too (default true) */
  caseSensitive?: boolean;
} | {
  /** The name of the score this evaluator gives */
  name: string;
  kind: "regex";
  /** RE2 syntax: matching takes linear time */
  pattern: string;
  /** i (ignore case), m (multi-line), s (dot matches new lines) */
  flags?: string;
} | {
  /** The name of the score this evaluator gives */
  name: string;
  kind: "json_schema";
  /** A JSON Schema (draft 2020-12 or 07) the output must satisfy */
  schema: { [key: string]: unknown };
} | {
  /** The name of the score this evaluator gives */
  name: string;
  /** Compare with this value instead of the row's expectedOutput (at the experiment's version) */
  expected?: Cell;
  kind: "numeric_close";
  /** Largest absolute difference that passes */
  tolerance?: number;
  /** Largest difference, as a share of the expected value, that passes */
  relativeTolerance?: number;
} | {
  /** The name of the score this evaluator gives */
  name: string;
  /** Compare with this value instead of the row's expectedOutput (at the experiment's version) */
  expected?: Cell;
  kind: "levenshtein";
  /** Compare letters' case too (default true) */
  caseSensitive?: boolean;
};

export type Experiment = {
  id: string;
  datasetId: string;
  name: string;
  /** The dataset version the experiment runs on */
  version: number;
  baseExperimentId: string | null;
  metadata: Cell;
  status: "running" | "finished";
  evaluators: Evaluator[];
  /** ISO-8601 timestamp in UTC */
  createdAt: string;
  finishedAt: string | null;
  actor: Actor;
  /** Rows of the dataset at the pinned version */
  rows: number;
  /** Rows with a result (errors and carried ones included) */
  results: number;
  /** Results that record an error */
  errors: number;
  /** Results carried over from the base experiment */
  carried: number;
  /** Each score's summary, by name */
  scores: { [key: string]: {
    count: number;
    /** Of numeric and boolean values; null when every value is a category */
    mean: number | null;
    min: number | null;
    max: number | null;
  } };
};

export type ExperimentResult = {
  rowId: string;
  /** The dataset version that made the row as the experiment saw it */
  rowVersion: number;
  /** The row's input at the experiment's version */
  input?: Cell;
  /** The row's expected output at the experiment's version */
  expectedOutput?: Cell;
  output: Cell;
  traceId: string | null;
  latencyMs: number | null;
  tokens: number | null;
  costMicrocents: number | null;
  error: string | null;
  /** The experiment this result was carried over from */
  carriedFrom: string | null;
  scores: { [key: string]: {
    value: ScoreValue;
    source: "rule" | "code" | "human" | "llm";
    comment: string | null;
    actor: Actor;
  } };
  /** ISO-8601 timestamp in UTC */
  createdAt: string;
};

export type Member = {
  id: string;
  userId: string;
  organizationId: string;
  /** Lower-case; null for the first owner of a fresh installation until they set one */
  email: string | null;
  /** The person's name; the address until they set one */
  name: string;
  role: Role;
  /** invited until the person first signs in, then active */
  status: "invited" | "active";
  /** ISO-8601 timestamp in UTC */
  createdAt: string;
  /** ISO-8601 timestamp in UTC */
  updatedAt: string;
};

export type ModelPrice = {
  /** `default:` and the model and date for a shipped default */
  id: string;
  model: string;
  /** The first UTC day (YYYY-MM-DD) whose spans take this price */
  effectiveFrom: string;
  inputUsdPerMillionTokens: number;
  outputUsdPerMillionTokens: number;
  /** A shipped default, or the organisation's own price (which replaces a default of the same model and date) */
  source: "default" | "organization";
  /** When the organisation set it; null for a default */
  updatedAt: string | null;
};

export type NewRow = {
  id?: string;
  input: Cell;
  output?: Cell;
  expectedOutput?: Cell;
  metadata?: Cell;
  custom?: { [key: string]: Cell };
};

export type Organization = {
  id: string;
  name: string;
  slug: string;
  /** ISO-8601 timestamp in UTC */
  createdAt: string;
};

export type OtlpAnyValueInput = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number | "NaN" | "Infinity" | "-Infinity";
  bytesValue?: string;
  arrayValue?: {
    values?: OtlpAnyValueInput[];
  };
  kvlistValue?: {
    values?: Array<{
      key: string;
      value?: OtlpAnyValueInput;
    }>;
  };
};

export type Project = {
  id: string;
  organizationId: string;
  slug: string;
  name: string;
  /** ISO-8601 timestamp in UTC */
  createdAt: string;
  /** ISO-8601 timestamp in UTC */
  updatedAt: string;
};

export type Role = "owner" | "admin" | "member" | "viewer";

export type RowSelection = {
  mode: "selected";
  rowIds: string[];
} | {
  mode: "allExcept";
  rowIds: string[];
} | {
  mode: "all";
};

/** A number, a boolean (counted as 1 or 0 in means and comparisons) or a category (a short string, left out of means) */
export type ScoreValue = number | boolean | string;

export type Span = {
  spanId: string;
  /** The parent's span id; null for a root. It may name a span that is not in `spans` (its exporter never sent it, or not yet): draw such a span as a root of its own */
  parentSpanId: string | null;
  name: string;
  kind: "unspecified" | "internal" | "server" | "client" | "producer" | "consumer";
  /** ISO-8601 timestamp in UTC */
  startTime: string;
  /** ISO-8601 timestamp in UTC */
  endTime: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  durationNs: string;
  status: {
    code: "unset" | "ok" | "error";
    message: string | null;
  };
  /** The span's attributes as plain JSON values */
  attributes: { [key: string]: Cell };
  resourceAttributes: { [key: string]: Cell };
  scope: {
    name: string;
    version: string | null;
  } | null;
  events: Array<{
    name: string;
    /** ISO-8601 timestamp in UTC */
    time: string;
    timeUnixNano: string;
    attributes: { [key: string]: Cell };
  }>;
  links: Array<{
    traceId: string;
    spanId: string;
    attributes: { [key: string]: Cell };
  }>;
  /** The model that answered (gen_ai.response.model), else the one asked for (gen_ai.request.model) */
  model: string | null;
  /** The generative-AI input messages (gen_ai.input.messages, gen_ai.prompt and their older forms); null when none */
  input: Cell;
  /** The generative-AI output messages (gen_ai.output.messages, gen_ai.completion…) */
  output: Cell;
  tokensInput: number;
  tokensOutput: number;
  /** What the exporter said it cost (gen_ai.usage.cost), else its tokens at the model's price when it was ingested; null when neither is known */
  costMicrocents: number | null;
};

export type Trace = {
  traceId: string;
  projectId: string;
  spanCount: number;
  /** Spans whose status code is 2 (error) */
  errorCount: number;
  /** Start of the earliest span, to the millisecond */
  startTime: string;
  /** End of the latest span, to the millisecond */
  endTime: string;
  /** endTime - startTime in nanoseconds, exact, as a string of digits (it may exceed 2^53) */
  durationNs: string;
  rootSpanName: string | null;
  sessionId: string | null;
  userId: string | null;
  tags: string[];
  models: string[];
  tokensInput: number;
  tokensOutput: number;
  tokensTotal: number;
  /** Cost in millionths of a US cent (1 USD = 10^8) */
  costTotalMicrocents: number;
  /** The root span's generative-AI input messages; null when it has none */
  input: Cell;
  /** The root span's generative-AI output messages; null when it has none */
  output: Cell;
};

/** One condition on a trace field. Operators: eq, neq, gt, gte, lt, lte (numbers and times), contains (case-insensitive substring of a text field, or an element of tags/models), in (any of the values), containsAny (tags/models holding any of the values). Times are ISO-8601; durationNs is nanoseconds. `text` `contains` searches the trace's input and output messages (case-insensitive, in their JSON text); from 3 characters on it is answered from an index. */
export type TraceFilterInput = {
  field: "traceId";
  op: "eq";
  /** Trace id: 32 hex characters, as OpenTelemetry writes it */
  value: string;
} | {
  field: "traceId";
  op: "in";
  value: string[];
} | {
  field: "startTime";
  op: "gt" | "gte" | "lt" | "lte";
  value: string;
} | {
  field: "endTime";
  op: "gt" | "gte" | "lt" | "lte";
  value: string;
} | {
  field: "durationNs";
  op: "eq" | "gt" | "gte" | "lt" | "lte";
  value: string | number;
} | {
  field: "spanCount";
  op: "eq" | "neq" | "gt" | "gte" | "lt" | "lte";
  value: number;
} | {
  field: "errorCount";
  op: "eq" | "neq" | "gt" | "gte" | "lt" | "lte";
  value: number;
} | {
  field: "tokensInput";
  op: "eq" | "neq" | "gt" | "gte" | "lt" | "lte";
  value: number;
} | {
  field: "tokensOutput";
  op: "eq" | "neq" | "gt" | "gte" | "lt" | "lte";
  value: number;
} | {
  field: "tokensTotal";
  op: "eq" | "neq" | "gt" | "gte" | "lt" | "lte";
  value: number;
} | {
  field: "costTotalMicrocents";
  op: "eq" | "neq" | "gt" | "gte" | "lt" | "lte";
  value: number;
} | {
  field: "rootSpanName";
  op: "eq" | "neq" | "contains";
  value: string;
} | {
  field: "rootSpanName";
  op: "in";
  value: string[];
} | {
  field: "sessionId";
  op: "eq" | "neq" | "contains";
  value: string;
} | {
  field: "sessionId";
  op: "in";
  value: string[];
} | {
  field: "userId";
  op: "eq" | "neq" | "contains";
  value: string;
} | {
  field: "userId";
  op: "in";
  value: string[];
} | {
  field: "tags";
  op: "contains";
  value: string;
} | {
  field: "tags";
  op: "containsAny";
  value: string[];
} | {
  field: "models";
  op: "contains";
  value: string;
} | {
  field: "models";
  op: "containsAny";
  value: string[];
} | {
  field: "text";
  op: "contains";
  value: string;
};

// Operations

export type GetAccountResponse = {
  organization: {
    id: string;
    name: string;
    slug: string;
  };
  role: Role;
  /** The person behind the credential: a person's session, or the one who made the key; null for a key made by no person */
  user: {
    id: string;
    /** Lower-case; null for the first owner of a fresh installation until they set one */
    email: string | null;
    name: string;
  } | null;
};

export type UpdateAccountUserBody = {
  name?: unknown & unknown;
  email?: string;
};

/** The person as they are now */
export type UpdateAccountUserResponse = {
  id: string;
  /** Lower-case; null for the first owner of a fresh installation until they set one */
  email: string | null;
  name: string;
};

export type CreateApiKeyBody = {
  name: string;
  /** At most the caller's own role */
  role?: Role;
};

export type CreateApiKeyResponse = CreatedApiKey;

export type GetApiKeyResponse = ApiKey;

export type ListApiKeysResponse = {
  apiKeys: ApiKey[];
};

export type UpdateApiKeyBody = {
  name: string;
};

export type UpdateApiKeyResponse = ApiKey;

export type CopyDatasetRowsBody = {
  to: {
    /** The target's project; default: the source's */
    projectSlug?: string;
    datasetSlug: string;
  };
  selection: {
    mode: "selected";
    rowIds: string[];
  } | {
    mode: "allExcept";
    rowIds: string[];
  } | {
    mode: "all";
  } | {
    mode: "filter";
    search?: string;
    missing?: string[];
    present?: string[];
    /** Value filters as GET …/rows takes them, such as ["metadata.source=\"prod\""] */
    where?: string | string[];
  };
  /** From a source custom column's identifier to the target's: an identifier, "new:<display name>" to create one, or null to leave its cells out. A custom column not named here goes to the target's active custom column of the same name (case-insensitive), created if there is none */
  columnMap?: { [key: string]: string | null };
};

export type CopyDatasetRowsResponse = {
  /** The target's new version; null when nothing was selected */
  versionId: string | null;
  /** The target's version */
  version: number;
  rowsCopied: number;
  /** The copies' ids in the target, in the source's order; the first 10000 of a larger copy */
  rowIds: string[];
};

export type CountDatasetRowsQuery = {
  search?: string;
  /** Only rows whose cell in each of these columns is absent or null, such as missing=expectedOutput: the rows that still need an expected output. Column identifiers, comma-separated or the parameter repeated */
  missing?: string;
  /** Only rows whose cell in each of these columns is set and not null; as `missing` */
  present?: string;
  /** Only rows whose cell, or the value at a JSON path inside it, equals a JSON value: `<column>[.<key or index>…]=<JSON>`, such as where=metadata.source="prod", where=expectedOutput=4 or where=metadata.tags.0="a". Repeat the parameter for several (all must hold) */
  where?: string | string[];
  /** Read the dataset as it was at this version */
  version?: number;
};

export type CountDatasetRowsOptions = RequestOptions & {
  /** Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset. */
  svcMinVersion?: number;
};

export type CountDatasetRowsResponse = {
  /** Rows that match, exact */
  count: number;
  /** The dataset version counted: the one asked for, or the current one */
  version: number;
};

export type CreateDatasetBody = {
  name: string;
  description?: string | null;
};

export type CreateDatasetResponse = Dataset;

export type CreateDatasetColumnBody = {
  name: string;
};

export type CreateDatasetColumnResponse = DatasetColumn;

export type DeleteDatasetRowsBody = {
  selection: RowSelection;
};

export type DeleteDatasetRowsResponse = {
  versionId: string | null;
  version: number;
  deletedCount: number;
};

export type DiffDatasetVersionsQuery = {
  /** Opaque cursor from a previous page's nextCursor */
  cursor?: string;
  /** Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore */
  limit?: number;
  /** The earlier version */
  from: number;
  /** The later version */
  to: number;
};

export type DiffDatasetVersionsOptions = RequestOptions & {
  /** Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset. */
  svcMinVersion?: number;
};

export type DiffDatasetVersionsResponse = {
  items: Array<{
    rowId: string;
    change: "added" | "removed" | "modified";
    /** The row's cells at `from`; null when it did not exist then */
    before: {
      input?: Cell;
      output?: Cell;
      expectedOutput?: Cell;
      metadata?: Cell;
      custom: { [key: string]: Cell };
    } | null;
    /** The row's cells at `to`; null when it did not exist then */
    after: {
      input?: Cell;
      output?: Cell;
      expectedOutput?: Cell;
      metadata?: Cell;
      custom: { [key: string]: Cell };
    } | null;
  }>;
  nextCursor: string | null;
  hasMore: boolean;
};

export type GetDatasetOptions = RequestOptions & {
  /** Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset. */
  svcMinVersion?: number;
};

export type GetDatasetResponse = Dataset;

export type GetDatasetImportOptions = RequestOptions & {
  /** Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset. */
  svcMinVersion?: number;
};

export type GetDatasetImportResponse = {
  importId: string;
  state: "receiving" | "running" | "succeeded" | "failed";
  format: "csv" | "jsonl" | "json" | "parquet";
  mode: "insert" | "update";
  bytesRead: number;
  rowsRead: number;
  createdAt: string;
  finishedAt: string | null;
  /** The version the import made; null when it changed nothing */
  versionId?: string | null;
  /** The dataset's version after the import: the one it made, or the current one when it changed nothing */
  version?: number;
  rowsInserted?: number;
  rowsUpdated?: number;
  /** Why a failed import failed; details.line names the file's line */
  error?: {
    code: string;
    error: string;
    details?: { [key: string]: unknown };
  };
};

export type GetDatasetRowQuery = {
  /** Read the row as it was at this version */
  version?: number;
};

export type GetDatasetRowOptions = RequestOptions & {
  /** Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset. */
  svcMinVersion?: number;
};

export type GetDatasetRowResponse = DatasetRow;

export type GetDatasetVersionOptions = RequestOptions & {
  /** Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset. */
  svcMinVersion?: number;
};

export type GetDatasetVersionResponse = DatasetVersion;

export type ImportDatasetRowsFromTracesBody = {
  traces: {
    by: "ids";
    ids: string[];
  } | {
    by: "filters";
    /** Conditions that every listed trace meets (AND) */
    filters: TraceFilterInput[];
  };
};

export type ImportDatasetRowsFromTracesResponse = {
  versionId: string;
  version: number;
  rowIds: string[];
};

export type InsertDatasetRowsBody = {
  rows: NewRow[];
};

export type InsertDatasetRowsResponse = {
  versionId: string;
  version: number;
  rowIds: string[];
};

export type ListDatasetsQuery = {
  /** Opaque cursor from a previous page's nextCursor */
  cursor?: string;
  /** Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore */
  limit?: number;
  sortBy?: "name" | "updatedAt";
  sortDirection?: "asc" | "desc";
};

export type ListDatasetsResponse = {
  items: Dataset[];
  nextCursor: string | null;
  hasMore: boolean;
};

export type ListDatasetColumnsQuery = {
  includeRemoved?: boolean | "true" | "false";
};

export type ListDatasetColumnsOptions = RequestOptions & {
  /** Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset. */
  svcMinVersion?: number;
};

export type ListDatasetColumnsResponse = {
  columns: DatasetColumn[];
};

export type ListDatasetRowsQuery = {
  /** Opaque cursor from a previous page's nextCursor */
  cursor?: string;
  /** Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore */
  limit?: number;
  search?: string;
  /** Only rows whose cell in each of these columns is absent or null, such as missing=expectedOutput: the rows that still need an expected output. Column identifiers, comma-separated or the parameter repeated */
  missing?: string;
  /** Only rows whose cell in each of these columns is set and not null; as `missing` */
  present?: string;
  /** Only rows whose cell, or the value at a JSON path inside it, equals a JSON value: `<column>[.<key or index>…]=<JSON>`, such as where=metadata.source="prod", where=expectedOutput=4 or where=metadata.tags.0="a". Repeat the parameter for several (all must hold) */
  where?: string | string[];
  sortDirection?: "asc" | "desc";
  /** Read the dataset as it was at this version */
  version?: number;
  /** Start the first page this many rows into the list (in its order and filters): a jump to a position, such as offset=500000. Only without a cursor; the page's nextCursor goes on from there */
  offset?: number;
};

export type ListDatasetRowsOptions = RequestOptions & {
  /** Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset. */
  svcMinVersion?: number;
};

export type ListDatasetRowsResponse = {
  items: DatasetRow[];
  nextCursor: string | null;
  hasMore: boolean;
};

export type ListDatasetVersionsQuery = {
  /** Opaque cursor from a previous page's nextCursor */
  cursor?: string;
  /** Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore */
  limit?: number;
};

export type ListDatasetVersionsOptions = RequestOptions & {
  /** Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset. */
  svcMinVersion?: number;
};

export type ListDatasetVersionsResponse = {
  items: DatasetVersion[];
  nextCursor: string | null;
  hasMore: boolean;
};

export type ReorderDatasetColumnsBody = {
  order: string[];
};

export type ReorderDatasetColumnsResponse = {
  columns: DatasetColumn[];
};

export type RestoreDatasetColumnResponse = DatasetColumn;

export type RestoreDatasetVersionResponse = {
  versionId: string;
  version: number;
};

export type GetDatasetRowHistoryQuery = {
  /** Opaque cursor from a previous page's nextCursor */
  cursor?: string;
  /** Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore */
  limit?: number;
};

export type GetDatasetRowHistoryOptions = RequestOptions & {
  /** Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset. */
  svcMinVersion?: number;
};

export type GetDatasetRowHistoryResponse = {
  items: Array<{
    version: number;
    versionId: string;
    /** ISO-8601 timestamp in UTC */
    createdAt: string;
    operation: "insert" | "update" | "delete" | "import" | "restore";
    /** Who made this version of the row */
    actor: Actor;
    /** The row's cells after this version; null when it was deleted */
    cells: {
      input?: Cell;
      output?: Cell;
      expectedOutput?: Cell;
      metadata?: Cell;
      custom: { [key: string]: Cell };
    } | null;
  }>;
  nextCursor: string | null;
  hasMore: boolean;
};

export type UpdateDatasetBody = {
  name?: string;
  description?: string | null;
};

export type UpdateDatasetResponse = Dataset;

export type UpdateDatasetColumnBody = {
  name: string;
};

export type UpdateDatasetColumnResponse = DatasetColumn;

export type UpdateDatasetRowBody = {
  input?: Cell;
  output?: Cell;
  expectedOutput?: Cell;
  metadata?: Cell;
  custom?: { [key: string]: Cell };
};

export type UpdateDatasetRowOptions = RequestOptions & {
  /** Apply the change only if the row's current version equals this one; otherwise 412 version_mismatch */
  ifMatch?: number;
};

export type UpdateDatasetRowResponse = {
  versionId: string;
  version: number;
};

export type UpdateDatasetRowsBody = {
  edits: Array<{
    output?: Cell;
    expectedOutput?: Cell;
    metadata?: Cell;
    custom?: { [key: string]: Cell };
    rowId: string;
    /** Apply this edit only if the row's current version equals this one */
    ifMatch?: number;
    input?: Cell;
  }>;
};

export type UpdateDatasetRowsResponse = {
  /** The new version; null when no cell changed and no version was made */
  versionId: string | null;
  version: number;
  /** Rows with at least one cell changed */
  rowsUpdated: number;
};

export type CompareExperimentsQuery = {
  /** Opaque cursor from a previous page's nextCursor */
  cursor?: string;
  /** Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore */
  limit?: number;
  /** Only rows with this change */
  change?: "regressed" | "improved" | "added" | "removed" | "same";
};

export type CompareExperimentsResponse = {
  items: Array<{
    rowId: string;
    change: "regressed" | "improved" | "added" | "removed" | "same";
    /** The row's revision differs between the two experiments' versions */
    rowChanged: boolean;
    a: ExperimentResult | null;
    b: ExperimentResult | null;
  }>;
  nextCursor: string | null;
  hasMore: boolean;
  summary: {
    /** Each shared score's mean in a and b, and b − a */
    scores: { [key: string]: {
      a: number | null;
      b: number | null;
      delta: number | null;
    } };
    regressed: number;
    improved: number;
    same: number;
    added: number;
    removed: number;
    rowsChanged: number;
  };
};

export type CreateExperimentBody = {
  name: string;
  /** The dataset version to run on (default: the current one); the experiment stays pinned to it */
  version?: number;
  /** An earlier experiment of the same dataset: the result of every row whose revision is the same at both versions is carried over, so only new and changed rows are pending */
  baseExperimentId?: string;
  /** Anything worth keeping with the run: model, prompt, commit */
  metadata?: Cell;
  evaluators?: EvaluatorInput[];
};

export type CreateExperimentResponse = Experiment;

export type GetExperimentResponse = Experiment;

export type ListExperimentsQuery = {
  /** Opaque cursor from a previous page's nextCursor */
  cursor?: string;
  /** Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore */
  limit?: number;
};

export type ListExperimentsResponse = {
  items: Experiment[];
  nextCursor: string | null;
  hasMore: boolean;
};

export type ListExperimentPendingRowsQuery = {
  /** Opaque cursor from a previous page's nextCursor */
  cursor?: string;
  /** Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore */
  limit?: number;
};

export type ListExperimentPendingRowsResponse = {
  items: DatasetRow[];
  nextCursor: string | null;
  hasMore: boolean;
};

export type RecordExperimentResultsBody = {
  results: Array<{
    rowId: string;
    /** What the task answered for the row */
    output: Cell;
    traceId?: string;
    latencyMs?: number;
    tokens?: number;
    costMicrocents?: number;
    /** Why the task failed for this row */
    error?: string;
    /** Scores the runner's own evaluators gave (source `code`, or `llm` for a judge model) */
    scores?: Array<{
      /** A score's name, 1-64 characters */
      name: string;
      value: ScoreValue;
      comment?: string;
      source?: "code" | "llm";
    }>;
  }>;
};

export type RecordExperimentResultsResponse = {
  recorded: number;
};

export type RecordExperimentScoresBody = {
  scores: Array<{
    /** A score's name, 1-64 characters */
    name: string;
    value: ScoreValue;
    comment?: string;
    /** The result scored; without it, the experiment as a whole */
    rowId?: string;
    /** Who judged: `code` by default for a key, always `human` from a person's session */
    source?: "code" | "human" | "llm";
  }>;
};

export type RecordExperimentScoresResponse = {
  recorded: number;
};

export type ListExperimentResultsQuery = {
  /** Opaque cursor from a previous page's nextCursor */
  cursor?: string;
  /** Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore */
  limit?: number;
  /** Only results with (true) or without (false) an error */
  errored?: boolean | "true" | "false";
  /** With `below`: only results whose score of this name is lower */
  score?: string;
  below?: number;
};

export type ListExperimentResultsResponse = {
  items: ExperimentResult[];
  nextCursor: string | null;
  hasMore: boolean;
};

export type UpdateExperimentBody = {
  name?: string;
  metadata?: Cell;
  /** Finish the experiment: it records nothing more */
  status?: "finished";
};

export type UpdateExperimentResponse = Experiment;

export type AddMemberBody = {
  email: string;
  role: Role;
};

/** The invited member, with the invitation's link when it was not mailed */
export type AddMemberResponse = {
  id: string;
  userId: string;
  organizationId: string;
  /** Lower-case; null for the first owner of a fresh installation until they set one */
  email: string | null;
  /** The person's name; the address until they set one */
  name: string;
  role: Role;
  /** invited until the person first signs in, then active */
  status: "invited" | "active";
  /** ISO-8601 timestamp in UTC */
  createdAt: string;
  /** ISO-8601 timestamp in UTC */
  updatedAt: string;
  /** The one-time sign-in link (valid 7 days) to hand to the person, when no e-mail was sent (the platform has no SVC_SMTP_URL, or the mail could not be sent); null when it was mailed, and on a replay of this request: it is shown once */
  inviteUrl: string | null;
};

export type ListMembersQuery = {
  /** Opaque cursor from a previous page's nextCursor */
  cursor?: string;
  /** Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore */
  limit?: number;
};

export type ListMembersResponse = {
  items: Member[];
  nextCursor: string | null;
  hasMore: boolean;
};

export type UpdateMemberBody = {
  role: Role;
};

export type UpdateMemberResponse = Member;

export type ListModelPricesResponse = {
  modelPrices: ModelPrice[];
};

export type SetModelPriceBody = {
  model: string;
  /** Today (UTC) if absent */
  effectiveFrom?: string;
  /** US dollars per million tokens, 0 to 1000000, with at most 8 decimal places */
  inputUsdPerMillionTokens: number;
  /** US dollars per million tokens, 0 to 1000000, with at most 8 decimal places */
  outputUsdPerMillionTokens: number;
};

export type SetModelPriceResponse = ModelPrice;

export type CreateOrganizationBody = {
  name: string;
  /** The first owner's address: they are invited as the organisation's owner member */
  ownerEmail?: string;
};

export type CreateOrganizationResponse = {
  organization: Organization;
  apiKey: CreatedApiKey;
  /** The invited first owner, when ownerEmail was given */
  owner: {
    id: string;
    userId: string;
    organizationId: string;
    /** Lower-case; null for the first owner of a fresh installation until they set one */
    email: string | null;
    /** The person's name; the address until they set one */
    name: string;
    role: Role;
    /** invited until the person first signs in, then active */
    status: "invited" | "active";
    /** ISO-8601 timestamp in UTC */
    createdAt: string;
    /** ISO-8601 timestamp in UTC */
    updatedAt: string;
    /** The one-time sign-in link (valid 7 days) to hand to the person, when no e-mail was sent (the platform has no SVC_SMTP_URL, or the mail could not be sent); null when it was mailed, and on a replay of this request: it is shown once */
    inviteUrl: string | null;
  } | null;
};

export type CreateProjectBody = {
  name: string;
};

export type CreateProjectResponse = Project;

export type GetProjectResponse = Project;

export type ListProjectsQuery = {
  /** Opaque cursor from a previous page's nextCursor */
  cursor?: string;
  /** Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore */
  limit?: number;
};

export type ListProjectsResponse = {
  items: Project[];
  nextCursor: string | null;
  hasMore: boolean;
};

export type UpdateProjectBody = {
  name: string;
};

export type UpdateProjectResponse = Project;

export type CreateSessionBody = {
  apiKey: string;
} | {
  signInCode: string;
};

export type CreateSessionResponse = BrowserSession;

export type EmailSignInLinkBody = {
  email: string;
};

export type EmailSignInLinkResponse = {
  message: string;
};

export type GetSessionResponse = BrowserSession;

export type GetTraceResponse = {
  traceId: string;
  projectId: string;
  spanCount: number;
  /** Spans whose status code is 2 (error) */
  errorCount: number;
  /** Start of the earliest span, to the millisecond */
  startTime: string;
  /** End of the latest span, to the millisecond */
  endTime: string;
  /** endTime - startTime in nanoseconds, exact, as a string of digits (it may exceed 2^53) */
  durationNs: string;
  rootSpanName: string | null;
  sessionId: string | null;
  userId: string | null;
  tags: string[];
  models: string[];
  tokensInput: number;
  tokensOutput: number;
  tokensTotal: number;
  /** Cost in millionths of a US cent (1 USD = 10^8) */
  costTotalMicrocents: number;
  /** The root span's generative-AI input messages; null when it has none */
  input: Cell;
  /** The root span's generative-AI output messages; null when it has none */
  output: Cell;
  /** Every span of the trace, by start time (then span id): a flat list a client builds the tree from with parentSpanId, however deep */
  spans: Span[];
};

/** OTLP/HTTP JSON ExportTraceServiceRequest, as any OpenTelemetry exporter sends it */
export type IngestTracesBody = {
  resourceSpans: Array<{
    resource?: {
      attributes?: Array<{
        key: string;
        value?: OtlpAnyValueInput;
      }>;
    };
    scopeSpans?: Array<{
      scope?: {
        name?: string;
        version?: string;
        attributes?: Array<{
          key: string;
          value?: OtlpAnyValueInput;
        }>;
      };
      spans?: Array<{
        /** Trace id: 32 hex characters, as OpenTelemetry writes it */
        traceId: string;
        spanId: string;
        parentSpanId?: "" | string;
        traceState?: string;
        name?: string;
        kind?: number | "SPAN_KIND_UNSPECIFIED" | "SPAN_KIND_INTERNAL" | "SPAN_KIND_SERVER" | "SPAN_KIND_CLIENT" | "SPAN_KIND_PRODUCER" | "SPAN_KIND_CONSUMER";
        startTimeUnixNano: string | number;
        endTimeUnixNano: string | number;
        attributes?: Array<{
          key: string;
          value?: OtlpAnyValueInput;
        }>;
        events?: Array<{
          timeUnixNano: string | number;
          name?: string;
          attributes?: Array<{
            key: string;
            value?: OtlpAnyValueInput;
          }>;
        }>;
        links?: Array<{
          /** Trace id: 32 hex characters, as OpenTelemetry writes it */
          traceId: string;
          spanId: string;
          attributes?: Array<{
            key: string;
            value?: OtlpAnyValueInput;
          }>;
        }>;
        status?: {
          code?: number | "STATUS_CODE_UNSET" | "STATUS_CODE_OK" | "STATUS_CODE_ERROR";
          message?: string;
        };
      }>;
      schemaUrl?: string;
    }>;
    schemaUrl?: string;
  }>;
};

export type IngestTracesOptions = RequestOptions & {
  /** Slug of the project that receives the traces */
  svcProject: string;
};

export type IngestTracesResponse = {
  partialSuccess: {
    rejectedSpans?: number;
    errorMessage?: string;
  };
};

export type ListTracesBody = {
  /** Opaque cursor from a previous page's nextCursor */
  cursor?: string;
  /** Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore */
  limit?: number;
  sortBy?: "startTime" | "endTime" | "durationNs" | "spanCount" | "errorCount" | "tokensTotal" | "costTotalMicrocents";
  sortDirection?: "asc" | "desc";
  /** Conditions that every listed trace meets (AND) */
  filters?: TraceFilterInput[];
};

export type ListTracesResponse = {
  items: Trace[];
  nextCursor: string | null;
  hasMore: boolean;
  /** How many traces match the filters, exactly, over every page */
  total: number;
};

export type GetTraceMetricsQuery = {
  /** Start of the range (inclusive), rounded down to its bucket */
  from: string;
  /** End of the range (exclusive), rounded up to a bucket; now if absent */
  to?: string;
  /** Width of each point of the series, in UTC */
  bucket?: "minute" | "hour" | "day";
  /** One series per model, root span name or tag; one series for all traces if absent */
  groupBy?: "model" | "rootSpanName" | "tag";
};

export type GetTraceMetricsResponse = {
  /** Every bucket of the range for each group, by time then group; a bucket without traces is zeros */
  series: Array<{
    /** Start of the bucket */
    time: string;
    /** The model, root span name or tag; null for traces without one (and for every point without groupBy, and for the sum of the other groups) */
    group: string | null;
    /** True for the one series that sums every group past the 20 with the most traces */
    otherGroups: boolean;
    /** Traces that started in the bucket */
    traces: number;
    /** Of those, traces with at least one span whose status is error */
    errors: number;
    /** Median trace duration in milliseconds, within 5% (0 without traces) */
    latencyP50Ms: number;
    /** 95th percentile of trace duration in milliseconds, within 5% */
    latencyP95Ms: number;
    tokensInput: number;
    tokensOutput: number;
    /** Cost in millionths of a US cent (1 USD = 10^8) */
    costMicrocents: number;
  }>;
};

export type ListTraceSessionsQuery = {
  /** Opaque cursor from a previous page's nextCursor */
  cursor?: string;
  /** Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore */
  limit?: number;
  sortBy?: "lastTime" | "firstTime" | "traces" | "errors" | "tokensTotal" | "costMicrocents";
  sortDirection?: "asc" | "desc";
  /** Only traces that started at or after this instant */
  from?: string;
  /** Only traces that started before this instant */
  to?: string;
};

export type ListTraceSessionsResponse = {
  items: Array<{
    traces: number;
    /** Traces with at least one span whose status is error */
    errors: number;
    tokensInput: number;
    tokensOutput: number;
    tokensTotal: number;
    costMicrocents: number;
    /** Start of the earliest trace */
    firstTime: string;
    /** Start of the latest trace */
    lastTime: string;
    sessionId: string;
  }>;
  nextCursor: string | null;
  hasMore: boolean;
};

export type ListTraceUsersQuery = {
  /** Opaque cursor from a previous page's nextCursor */
  cursor?: string;
  /** Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore */
  limit?: number;
  sortBy?: "lastTime" | "firstTime" | "traces" | "errors" | "tokensTotal" | "costMicrocents";
  sortDirection?: "asc" | "desc";
  /** Only traces that started at or after this instant */
  from?: string;
  /** Only traces that started before this instant */
  to?: string;
};

export type ListTraceUsersResponse = {
  items: Array<{
    traces: number;
    /** Traces with at least one span whose status is error */
    errors: number;
    tokensInput: number;
    tokensOutput: number;
    tokensTotal: number;
    costMicrocents: number;
    /** Start of the earliest trace */
    firstTime: string;
    /** Start of the latest trace */
    lastTime: string;
    userId: string;
  }>;
  nextCursor: string | null;
  hasMore: boolean;
};

/** The caller's organisation and role */
export class AccountResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * The caller's organisation, role and person.
   *
   * `user` is the person behind the credential: the one signed in, or the one who made the API key; null for a key made by no person (the start-up key, or one made by such a key).
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/account` (operation `getAccount`)
   */
  get(options?: RequestOptions): Promise<GetAccountResponse> {
    return this.#transport.request<GetAccountResponse>({
      method: "GET",
      path: `/v1/account`,
      options: options,
    });
  }

  /**
   * Set your own name or e-mail address.
   *
   * Only a person signed in as themselves (a browser session opened with a sign-in link) may change their name or address: an API key is the organisation's, and an address signs its owner in to every organisation they belong to. The name shows wherever the person changed something. An address another person has is 409 conflict. Names and addresses with line breaks or other control characters are refused.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `PATCH /v1/account/user` (operation `updateAccountUser`)
   */
  updateUser(body: UpdateAccountUserBody, options?: RequestOptions): Promise<UpdateAccountUserResponse> {
    return this.#transport.request<UpdateAccountUserResponse>({
      method: "PATCH",
      path: `/v1/account/user`,
      body: body,
      options: options,
    });
  }
}

/** API keys of the organisation */
export class ApiKeysResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Create an API key; the full token is in this response and never again.
   *
   * The token is in this answer only: the platform keeps its hash, never the token. A retry with the same Idempotency-Key and body answers 201 with the same key, `token: null` and `tokenAlreadyShown: true`, and creates nothing: a token is shown once, even to a caller who may replay the request. A client whose first answer was lost revokes that key and creates another.
   *
   * Requires an API key with role `admin` or higher.
   *
   * `POST /v1/api-keys` (operation `createApiKey`)
   */
  create(body: CreateApiKeyBody, options?: RequestOptions): Promise<CreateApiKeyResponse> {
    return this.#transport.request<CreateApiKeyResponse>({
      method: "POST",
      path: `/v1/api-keys`,
      body: body,
      options: options,
    });
  }

  /**
   * Revoke an API key; it stops working at every gateway within a second.
   *
   * Requires an API key with role `admin` or higher.
   *
   * `DELETE /v1/api-keys/{id}` (operation `deleteApiKey`)
   */
  delete(id: string, options?: RequestOptions): Promise<void> {
    return this.#transport.request<void>({
      method: "DELETE",
      path: `/v1/api-keys/${encodePath(id)}`,
      options: options,
    });
  }

  /**
   * One API key, token masked.
   *
   * Requires an API key with role `admin` or higher.
   *
   * `GET /v1/api-keys/{id}` (operation `getApiKey`)
   */
  get(id: string, options?: RequestOptions): Promise<GetApiKeyResponse> {
    return this.#transport.request<GetApiKeyResponse>({
      method: "GET",
      path: `/v1/api-keys/${encodePath(id)}`,
      options: options,
    });
  }

  /**
   * List the organisation's API keys, tokens masked.
   *
   * Requires an API key with role `admin` or higher.
   *
   * `GET /v1/api-keys` (operation `listApiKeys`)
   */
  list(options?: RequestOptions): Promise<ListApiKeysResponse> {
    return this.#transport.request<ListApiKeysResponse>({
      method: "GET",
      path: `/v1/api-keys`,
      options: options,
    });
  }

  /**
   * Rename an API key.
   *
   * Requires an API key with role `admin` or higher.
   *
   * `PATCH /v1/api-keys/{id}` (operation `updateApiKey`)
   */
  update(id: string, body: UpdateApiKeyBody, options?: RequestOptions): Promise<UpdateApiKeyResponse> {
    return this.#transport.request<UpdateApiKeyResponse>({
      method: "PATCH",
      path: `/v1/api-keys/${encodePath(id)}`,
      body: body,
      options: options,
    });
  }
}

/** Datasets, their rows, columns and versions */
export class DatasetsResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Copy rows into another dataset of the organisation, as one new version of the target.
   *
   * Selects rows of this dataset at its current version (selected ids, all except some, all, or a list filter) and inserts copies with new ids into the target, all or nothing. Custom cells go to the target's column of the same name unless `columnMap` says otherwise; each copy's `metadata` gets `copiedFrom: {projectSlug, datasetSlug, datasetId, rowId, version}` (a metadata cell that is not an object moves to `metadata.value`). A selection that matches nothing makes no version (200, `versionId: null`).
   *
   * Requires an API key with role `member` or higher.
   *
   * `POST /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/copy` (operation `copyDatasetRows`)
   */
  copyRows(projectSlug: string, datasetSlug: string, body: CopyDatasetRowsBody, options?: RequestOptions): Promise<CopyDatasetRowsResponse> {
    return this.#transport.request<CopyDatasetRowsResponse>({
      method: "POST",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/rows/copy`,
      body: body,
      options: options,
    });
  }

  /**
   * Count the rows a list with these filters holds, exactly; `version` counts the dataset as it was.
   *
   * Takes the filters of the row list (`search`, `missing`, `present`, `where`) and `version`, and counts every row they let through, not a page. Without filters it is the version's row count. A version never changes, so a count is kept once made, and the count of a later version is worked out from what changed in between: asking again after an edit costs what the edit changed, not the dataset's size. A column named in a filter that is unknown or removed is 400 unknown_column.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/row-count` (operation `countDatasetRows`)
   */
  countRows(projectSlug: string, datasetSlug: string, query?: CountDatasetRowsQuery, options?: CountDatasetRowsOptions): Promise<CountDatasetRowsResponse> {
    return this.#transport.request<CountDatasetRowsResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/row-count`,
      query: query,
      headers: { "X-Svc-Min-Version": options?.svcMinVersion },
      options: options,
    });
  }

  /**
   * Create an empty dataset (version 0).
   *
   * Requires an API key with role `member` or higher.
   *
   * `POST /v1/projects/{projectSlug}/datasets` (operation `createDataset`)
   */
  create(projectSlug: string, body: CreateDatasetBody, options?: RequestOptions): Promise<CreateDatasetResponse> {
    return this.#transport.request<CreateDatasetResponse>({
      method: "POST",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets`,
      body: body,
      options: options,
    });
  }

  /**
   * Add a custom column; its identifier never changes.
   *
   * A dataset has at most 1000 active custom columns; one more is 400 too_many_columns (details.limit), and a removed column can be restored only while there is room.
   *
   * Requires an API key with role `member` or higher.
   *
   * `POST /v1/projects/{projectSlug}/datasets/{datasetSlug}/columns` (operation `createDatasetColumn`)
   */
  createColumn(projectSlug: string, datasetSlug: string, body: CreateDatasetColumnBody, options?: RequestOptions): Promise<CreateDatasetColumnResponse> {
    return this.#transport.request<CreateDatasetColumnResponse>({
      method: "POST",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/columns`,
      body: body,
      options: options,
    });
  }

  /**
   * Delete a dataset with its rows and history.
   *
   * Requires an API key with role `member` or higher.
   *
   * `DELETE /v1/projects/{projectSlug}/datasets/{datasetSlug}` (operation `deleteDataset`)
   */
  delete(projectSlug: string, datasetSlug: string, options?: RequestOptions): Promise<void> {
    return this.#transport.request<void>({
      method: "DELETE",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}`,
      options: options,
    });
  }

  /**
   * Remove a column (soft: its data is kept, but no longer accepted or shown).
   *
   * Requires an API key with role `member` or higher.
   *
   * `DELETE /v1/projects/{projectSlug}/datasets/{datasetSlug}/columns/{identifier}` (operation `deleteDatasetColumn`)
   */
  deleteColumn(projectSlug: string, datasetSlug: string, identifier: string, options?: RequestOptions): Promise<void> {
    return this.#transport.request<void>({
      method: "DELETE",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/columns/${encodePath(identifier)}`,
      options: options,
    });
  }

  /**
   * Delete the selected rows, all rows, or all except some, as one new dataset version.
   *
   * Requires an API key with role `member` or higher.
   *
   * `DELETE /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows` (operation `deleteDatasetRows`)
   */
  deleteRows(projectSlug: string, datasetSlug: string, body: DeleteDatasetRowsBody, options?: RequestOptions): Promise<DeleteDatasetRowsResponse> {
    return this.#transport.request<DeleteDatasetRowsResponse>({
      method: "DELETE",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/rows`,
      body: body,
      options: options,
    });
  }

  /**
   * Every row that differs between versions `from` and `to`, cell by cell, ordered by row id.
   *
   * Costs what changed between the two versions, not the size of the dataset or its later history. `from` must not be greater than `to`; both must exist.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/diff` (operation `diffDatasetVersions`)
   */
  diff(projectSlug: string, datasetSlug: string, query: DiffDatasetVersionsQuery, options?: DiffDatasetVersionsOptions): Promise<DiffDatasetVersionsResponse> {
    return this.#transport.request<DiffDatasetVersionsResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/diff`,
      query: query,
      headers: { "X-Svc-Min-Version": options?.svcMinVersion },
      options: options,
    });
  }

  /** Every item of `diff`, page after page, following `nextCursor` until the last page. */
  iterateDiff(projectSlug: string, datasetSlug: string, query: Omit<DiffDatasetVersionsQuery, "cursor">, options?: Omit<DiffDatasetVersionsOptions, "idempotencyKey">): AsyncGenerator<{
    rowId: string;
    change: "added" | "removed" | "modified";
    /** The row's cells at `from`; null when it did not exist then */
    before: {
      input?: Cell;
      output?: Cell;
      expectedOutput?: Cell;
      metadata?: Cell;
      custom: { [key: string]: Cell };
    } | null;
    /** The row's cells at `to`; null when it did not exist then */
    after: {
      input?: Cell;
      output?: Cell;
      expectedOutput?: Cell;
      metadata?: Cell;
      custom: { [key: string]: Cell };
    } | null;
  }, void, undefined> {
    return paginate((cursor) => this.diff(projectSlug, datasetSlug, withCursor(query, cursor), options));
  }

  /**
   * One dataset, with its active columns and current version.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}` (operation `getDataset`)
   */
  get(projectSlug: string, datasetSlug: string, options?: GetDatasetOptions): Promise<GetDatasetResponse> {
    return this.#transport.request<GetDatasetResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}`,
      headers: { "X-Svc-Min-Version": options?.svcMinVersion },
      options: options,
    });
  }

  /**
   * An import's progress (bytes and rows read) or outcome (its version, or why it failed).
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/imports/{importId}` (operation `getDatasetImport`)
   */
  getImport(projectSlug: string, datasetSlug: string, importId: string, options?: GetDatasetImportOptions): Promise<GetDatasetImportResponse> {
    return this.#transport.request<GetDatasetImportResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/imports/${encodePath(importId)}`,
      headers: { "X-Svc-Min-Version": options?.svcMinVersion },
      options: options,
    });
  }

  /**
   * One row; `version` reads it as it was.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/{rowId}` (operation `getDatasetRow`)
   */
  getRow(projectSlug: string, datasetSlug: string, rowId: string, query?: GetDatasetRowQuery, options?: GetDatasetRowOptions): Promise<GetDatasetRowResponse> {
    return this.#transport.request<GetDatasetRowResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/rows/${encodePath(rowId)}`,
      query: query,
      headers: { "X-Svc-Min-Version": options?.svcMinVersion },
      options: options,
    });
  }

  /**
   * One dataset version: what it did, how many rows, and who.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/versions/{version}` (operation `getDatasetVersion`)
   */
  getVersion(projectSlug: string, datasetSlug: string, version: number, options?: GetDatasetVersionOptions): Promise<GetDatasetVersionResponse> {
    return this.#transport.request<GetDatasetVersionResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/versions/${encodePath(version)}`,
      headers: { "X-Svc-Min-Version": options?.svcMinVersion },
      options: options,
    });
  }

  /**
   * Add one row per trace (by ids or by filters, at most 1000) as one new dataset version.
   *
   * Each trace of the dataset's project becomes a new row: its input and output become the row's `input` and `output`, and `metadata` records where it came from (`traceId` and the trace's summary). The whole import is one dataset version (operation `import`). More than 1000 traces is 422 too_many_traces; trace ids that do not exist are 404 naming them; either way nothing is written.
   *
   * Requires an API key with role `member` or higher.
   *
   * `POST /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/import/traces` (operation `importDatasetRowsFromTraces`)
   */
  importTraces(projectSlug: string, datasetSlug: string, body: ImportDatasetRowsFromTracesBody, options?: RequestOptions): Promise<ImportDatasetRowsFromTracesResponse> {
    return this.#transport.request<ImportDatasetRowsFromTracesResponse>({
      method: "POST",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/rows/import/traces`,
      body: body,
      options: options,
    });
  }

  /**
   * Insert 1-1000 rows as one new dataset version.
   *
   * A row without `id` gets a generated one. Ids must be unique within the request (400 validation_failed naming the id that repeats); an id that a row of the dataset already has is 409 conflict, and nothing is written.
   *
   * Requires an API key with role `member` or higher.
   *
   * `POST /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows` (operation `insertDatasetRows`)
   */
  insertRows(projectSlug: string, datasetSlug: string, body: InsertDatasetRowsBody, options?: RequestOptions): Promise<InsertDatasetRowsResponse> {
    return this.#transport.request<InsertDatasetRowsResponse>({
      method: "POST",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/rows`,
      body: body,
      options: options,
    });
  }

  /**
   * List the project's datasets.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/datasets` (operation `listDatasets`)
   */
  list(projectSlug: string, query?: ListDatasetsQuery, options?: RequestOptions): Promise<ListDatasetsResponse> {
    return this.#transport.request<ListDatasetsResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets`,
      query: query,
      options: options,
    });
  }

  /** Every item of `list`, page after page, following `nextCursor` until the last page. */
  iterate(projectSlug: string, query?: Omit<ListDatasetsQuery, "cursor">, options?: Omit<RequestOptions, "idempotencyKey">): AsyncGenerator<Dataset, void, undefined> {
    return paginate((cursor) => this.list(projectSlug, withCursor(query, cursor), options));
  }

  /**
   * Ordered columns, built-in then custom as ordered; `includeRemoved=true` adds removed ones.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/columns` (operation `listDatasetColumns`)
   */
  listColumns(projectSlug: string, datasetSlug: string, query?: ListDatasetColumnsQuery, options?: ListDatasetColumnsOptions): Promise<ListDatasetColumnsResponse> {
    return this.#transport.request<ListDatasetColumnsResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/columns`,
      query: query,
      headers: { "X-Svc-Min-Version": options?.svcMinVersion },
      options: options,
    });
  }

  /**
   * List rows, newest first by default; `version` reads the dataset as it was.
   *
   * The cursor pins the dataset version its first page saw: paging on while others edit returns one consistent snapshot. `search`, `missing` and `present` combine (all must hold), also with `version`; a cursor carries them, and a page asked with a cursor must repeat them. A column named in `missing` or `present` that is unknown or removed is 400 unknown_column.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows` (operation `listDatasetRows`)
   */
  listRows(projectSlug: string, datasetSlug: string, query?: ListDatasetRowsQuery, options?: ListDatasetRowsOptions): Promise<ListDatasetRowsResponse> {
    return this.#transport.request<ListDatasetRowsResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/rows`,
      query: query,
      headers: { "X-Svc-Min-Version": options?.svcMinVersion },
      options: options,
    });
  }

  /** Every item of `listRows`, page after page, following `nextCursor` until the last page. */
  iterateRows(projectSlug: string, datasetSlug: string, query?: Omit<ListDatasetRowsQuery, "cursor">, options?: Omit<ListDatasetRowsOptions, "idempotencyKey">): AsyncGenerator<DatasetRow, void, undefined> {
    return paginate((cursor) => this.listRows(projectSlug, datasetSlug, withCursor(query, cursor), options));
  }

  /**
   * List the dataset's versions, newest first.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/versions` (operation `listDatasetVersions`)
   */
  listVersions(projectSlug: string, datasetSlug: string, query?: ListDatasetVersionsQuery, options?: ListDatasetVersionsOptions): Promise<ListDatasetVersionsResponse> {
    return this.#transport.request<ListDatasetVersionsResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/versions`,
      query: query,
      headers: { "X-Svc-Min-Version": options?.svcMinVersion },
      options: options,
    });
  }

  /** Every item of `listVersions`, page after page, following `nextCursor` until the last page. */
  iterateVersions(projectSlug: string, datasetSlug: string, query?: Omit<ListDatasetVersionsQuery, "cursor">, options?: Omit<ListDatasetVersionsOptions, "idempotencyKey">): AsyncGenerator<DatasetVersion, void, undefined> {
    return paginate((cursor) => this.listVersions(projectSlug, datasetSlug, withCursor(query, cursor), options));
  }

  /**
   * Set the left-to-right order of the active columns (list every active identifier once).
   *
   * Requires an API key with role `member` or higher.
   *
   * `POST /v1/projects/{projectSlug}/datasets/{datasetSlug}/columns/reorder` (operation `reorderDatasetColumns`)
   */
  reorderColumns(projectSlug: string, datasetSlug: string, body: ReorderDatasetColumnsBody, options?: RequestOptions): Promise<ReorderDatasetColumnsResponse> {
    return this.#transport.request<ReorderDatasetColumnsResponse>({
      method: "POST",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/columns/reorder`,
      body: body,
      options: options,
    });
  }

  /**
   * Bring a removed column back, with its data.
   *
   * Requires an API key with role `member` or higher.
   *
   * `POST /v1/projects/{projectSlug}/datasets/{datasetSlug}/columns/{identifier}/restore` (operation `restoreDatasetColumn`)
   */
  restoreColumn(projectSlug: string, datasetSlug: string, identifier: string, options?: RequestOptions): Promise<RestoreDatasetColumnResponse> {
    return this.#transport.request<RestoreDatasetColumnResponse>({
      method: "POST",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/columns/${encodePath(identifier)}/restore`,
      options: options,
    });
  }

  /**
   * Make the dataset equal to an earlier version again, as one new version.
   *
   * Rows, cells and deletions return to what they were at that version; only rows that differ get a new revision, and the answer is `201` with the new version. Version 0 is the empty dataset every dataset starts as: restoring it deletes every row (a dataset still at version 0 has nothing to restore: `404`). Restoring the version the dataset is already at changes nothing and creates nothing: it answers `200` (not `201`) with the current `{versionId, version}`.
   *
   * Requires an API key with role `member` or higher.
   *
   * `POST /v1/projects/{projectSlug}/datasets/{datasetSlug}/versions/{version}/restore` (operation `restoreDatasetVersion`)
   */
  restoreVersion(projectSlug: string, datasetSlug: string, version: number, options?: RequestOptions): Promise<RestoreDatasetVersionResponse> {
    return this.#transport.request<RestoreDatasetVersionResponse>({
      method: "POST",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/versions/${encodePath(version)}/restore`,
      options: options,
    });
  }

  /**
   * Every version of one row, newest first.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/{rowId}/history` (operation `getDatasetRowHistory`)
   */
  rowHistory(projectSlug: string, datasetSlug: string, rowId: string, query?: GetDatasetRowHistoryQuery, options?: GetDatasetRowHistoryOptions): Promise<GetDatasetRowHistoryResponse> {
    return this.#transport.request<GetDatasetRowHistoryResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/rows/${encodePath(rowId)}/history`,
      query: query,
      headers: { "X-Svc-Min-Version": options?.svcMinVersion },
      options: options,
    });
  }

  /** Every item of `rowHistory`, page after page, following `nextCursor` until the last page. */
  iterateRowHistory(projectSlug: string, datasetSlug: string, rowId: string, query?: Omit<GetDatasetRowHistoryQuery, "cursor">, options?: Omit<GetDatasetRowHistoryOptions, "idempotencyKey">): AsyncGenerator<{
    version: number;
    versionId: string;
    /** ISO-8601 timestamp in UTC */
    createdAt: string;
    operation: "insert" | "update" | "delete" | "import" | "restore";
    /** Who made this version of the row */
    actor: Actor;
    /** The row's cells after this version; null when it was deleted */
    cells: {
      input?: Cell;
      output?: Cell;
      expectedOutput?: Cell;
      metadata?: Cell;
      custom: { [key: string]: Cell };
    } | null;
  }, void, undefined> {
    return paginate((cursor) => this.rowHistory(projectSlug, datasetSlug, rowId, withCursor(query, cursor), options));
  }

  /**
   * Rename or describe a dataset (its slug stays).
   *
   * Requires an API key with role `member` or higher.
   *
   * `PATCH /v1/projects/{projectSlug}/datasets/{datasetSlug}` (operation `updateDataset`)
   */
  update(projectSlug: string, datasetSlug: string, body: UpdateDatasetBody, options?: RequestOptions): Promise<UpdateDatasetResponse> {
    return this.#transport.request<UpdateDatasetResponse>({
      method: "PATCH",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}`,
      body: body,
      options: options,
    });
  }

  /**
   * Rename a column, built-in or custom; the identifier never changes.
   *
   * Requires an API key with role `member` or higher.
   *
   * `PATCH /v1/projects/{projectSlug}/datasets/{datasetSlug}/columns/{identifier}` (operation `updateDatasetColumn`)
   */
  updateColumn(projectSlug: string, datasetSlug: string, identifier: string, body: UpdateDatasetColumnBody, options?: RequestOptions): Promise<UpdateDatasetColumnResponse> {
    return this.#transport.request<UpdateDatasetColumnResponse>({
      method: "PATCH",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/columns/${encodePath(identifier)}`,
      body: body,
      options: options,
    });
  }

  /**
   * Edit a row's cells; only the cells present change, and the edit is one new dataset version.
   *
   * `input`, `output`, `expectedOutput` and `metadata` replace that cell (`null` sets it to null). `custom` is merged onto the row's custom cells by column identifier; identifiers left out are untouched. `If-Match: <version>` applies the edit only if the row's current version equals it.
   *
   * Requires an API key with role `member` or higher.
   *
   * `PATCH /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/{rowId}` (operation `updateDatasetRow`)
   */
  updateRow(projectSlug: string, datasetSlug: string, rowId: string, body: UpdateDatasetRowBody, options?: UpdateDatasetRowOptions): Promise<UpdateDatasetRowResponse> {
    return this.#transport.request<UpdateDatasetRowResponse>({
      method: "PATCH",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/rows/${encodePath(rowId)}`,
      body: body,
      headers: { "If-Match": options?.ifMatch },
      options: options,
    });
  }

  /**
   * Edit 1-1000 rows as one new dataset version, all or nothing.
   *
   * Each edit names a row and the cells to change, as the row edit does: `input`, `output`, `expectedOutput` and `metadata` replace that cell, `custom` is merged by column identifier. `ifMatch` applies the whole batch only if that row's current version equals it. A row may appear once. Only cells whose value differs from the current one change; a batch that changes nothing makes no version (`versionId: null`). An error names the edit's index and its row, and nothing is written.
   *
   * Requires an API key with role `member` or higher.
   *
   * `PATCH /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows` (operation `updateDatasetRows`)
   */
  updateRows(projectSlug: string, datasetSlug: string, body: UpdateDatasetRowsBody, options?: RequestOptions): Promise<UpdateDatasetRowsResponse> {
    return this.#transport.request<UpdateDatasetRowsResponse>({
      method: "PATCH",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/rows`,
      body: body,
      options: options,
    });
  }
}

/** Experiments: an agent run over a dataset version, its results, scores and comparisons */
export class ExperimentsResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Compare two experiments of one dataset row by row, regressions first, with a summary.
   *
   * `experimentId` is a (the baseline), `otherExperimentId` is b. Each row with a result in either is `regressed` when any numeric or boolean score the two results share is lower in b (higher is better), else `improved` when any is higher, else `same`; `added` has a result only in b, `removed` only in a. Rows come in that order (regressed, improved, added, removed, same), then by row id.
   *
   * `rowChanged` is true when the row's revision differs between the two experiments' versions: the dataset changed, not only the answer. `summary` covers every row, whatever the page.
   *
   * Two experiments of different datasets are 400 validation_failed.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/experiments/{experimentId}/compare/{otherExperimentId}` (operation `compareExperiments`)
   */
  compare(projectSlug: string, experimentId: string, otherExperimentId: string, query?: CompareExperimentsQuery, options?: RequestOptions): Promise<CompareExperimentsResponse> {
    return this.#transport.request<CompareExperimentsResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/experiments/${encodePath(experimentId)}/compare/${encodePath(otherExperimentId)}`,
      query: query,
      options: options,
    });
  }

  /** Every item of `compare`, page after page, following `nextCursor` until the last page. */
  iterateCompare(projectSlug: string, experimentId: string, otherExperimentId: string, query?: Omit<CompareExperimentsQuery, "cursor">, options?: Omit<RequestOptions, "idempotencyKey">): AsyncGenerator<{
    rowId: string;
    change: "regressed" | "improved" | "added" | "removed" | "same";
    /** The row's revision differs between the two experiments' versions */
    rowChanged: boolean;
    a: ExperimentResult | null;
    b: ExperimentResult | null;
  }, void, undefined> {
    return paginate((cursor) => this.compare(projectSlug, experimentId, otherExperimentId, withCursor(query, cursor), options));
  }

  /**
   * Start an experiment pinned to a dataset version.
   *
   * The experiment runs on `version` (default: the dataset's current version) for good: later edits of the dataset do not change what it runs on. Every row of that version is pending until a result is recorded for it.
   *
   * `evaluators` are checked now: a regex that does not compile (RE2 syntax), a JSON Schema that does not compile, or two evaluators of one name are 400 validation_failed naming the evaluator, and nothing is created.
   *
   * With `baseExperimentId` (an earlier experiment of the same dataset), the result and scores of every row whose revision is the same at both versions are carried over (`carriedFrom`), and only new and changed rows are pending; the base's rule scores are carried only for evaluators this experiment declares the same way, and this experiment's other rules are applied to the carried results. A base of another dataset is 400 validation_failed.
   *
   * Requires an API key with role `member` or higher.
   *
   * `POST /v1/projects/{projectSlug}/datasets/{datasetSlug}/experiments` (operation `createExperiment`)
   */
  create(projectSlug: string, datasetSlug: string, body: CreateExperimentBody, options?: RequestOptions): Promise<CreateExperimentResponse> {
    return this.#transport.request<CreateExperimentResponse>({
      method: "POST",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/experiments`,
      body: body,
      options: options,
    });
  }

  /**
   * Delete an experiment with its results and scores.
   *
   * Experiments that were started from it as their base keep their carried results; their `baseExperimentId` stays as it was.
   *
   * Requires an API key with role `member` or higher.
   *
   * `DELETE /v1/projects/{projectSlug}/experiments/{experimentId}` (operation `deleteExperiment`)
   */
  delete(projectSlug: string, experimentId: string, options?: RequestOptions): Promise<void> {
    return this.#transport.request<void>({
      method: "DELETE",
      path: `/v1/projects/${encodePath(projectSlug)}/experiments/${encodePath(experimentId)}`,
      options: options,
    });
  }

  /**
   * One experiment with its counts and score summary.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/experiments/{experimentId}` (operation `getExperiment`)
   */
  get(projectSlug: string, experimentId: string, options?: RequestOptions): Promise<GetExperimentResponse> {
    return this.#transport.request<GetExperimentResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/experiments/${encodePath(experimentId)}`,
      options: options,
    });
  }

  /**
   * List a dataset's experiments, newest first, each with its score summary.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/experiments` (operation `listExperiments`)
   */
  list(projectSlug: string, datasetSlug: string, query?: ListExperimentsQuery, options?: RequestOptions): Promise<ListExperimentsResponse> {
    return this.#transport.request<ListExperimentsResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/datasets/${encodePath(datasetSlug)}/experiments`,
      query: query,
      options: options,
    });
  }

  /** Every item of `list`, page after page, following `nextCursor` until the last page. */
  iterate(projectSlug: string, datasetSlug: string, query?: Omit<ListExperimentsQuery, "cursor">, options?: Omit<RequestOptions, "idempotencyKey">): AsyncGenerator<Experiment, void, undefined> {
    return paginate((cursor) => this.list(projectSlug, datasetSlug, withCursor(query, cursor), options));
  }

  /**
   * Rows of the pinned version without a result yet, with their cells at that version.
   *
   * In row id order. A runner pages through these, runs its task on each and records the results; a runner that stopped half-way starts again here and does only what is left. Rows recorded while paging drop out of later pages without shifting them.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/experiments/{experimentId}/pending` (operation `listExperimentPendingRows`)
   */
  pending(projectSlug: string, experimentId: string, query?: ListExperimentPendingRowsQuery, options?: RequestOptions): Promise<ListExperimentPendingRowsResponse> {
    return this.#transport.request<ListExperimentPendingRowsResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/experiments/${encodePath(experimentId)}/pending`,
      query: query,
      options: options,
    });
  }

  /** Every item of `pending`, page after page, following `nextCursor` until the last page. */
  iteratePending(projectSlug: string, experimentId: string, query?: Omit<ListExperimentPendingRowsQuery, "cursor">, options?: Omit<RequestOptions, "idempotencyKey">): AsyncGenerator<DatasetRow, void, undefined> {
    return paginate((cursor) => this.pending(projectSlug, experimentId, withCursor(query, cursor), options));
  }

  /**
   * Record 1-1000 results, all or nothing.
   *
   * A row's new result replaces its old one, with all of the old one's scores. The experiment's rule evaluators score each result as it is recorded (source `rule`); `scores` carries the runner's own (source `code` or `llm`).
   *
   * A row named twice in one request is 400 validation_failed; a row that is not in the experiment's version is 400 unknown_row (`details.rowIds` names them); a finished experiment is 409 conflict; either way nothing of the request is recorded. Send an `Idempotency-Key` from a runner: a retry then records once.
   *
   * Requires an API key with role `member` or higher.
   *
   * `POST /v1/projects/{projectSlug}/experiments/{experimentId}/results` (operation `recordExperimentResults`)
   */
  recordResults(projectSlug: string, experimentId: string, body: RecordExperimentResultsBody, options?: RequestOptions): Promise<RecordExperimentResultsResponse> {
    return this.#transport.request<RecordExperimentResultsResponse>({
      method: "POST",
      path: `/v1/projects/${encodePath(projectSlug)}/experiments/${encodePath(experimentId)}/results`,
      body: body,
      options: options,
    });
  }

  /**
   * Add 1-1000 scores to results, or to the experiment as a whole.
   *
   * A score replaces the score of the same name on the same result (or on the experiment, without `rowId`). From a person's session the source is always `human`; a key sends `code` by default. A row without a result is 400 unknown_row; a finished experiment is 409 conflict; nothing of the request is recorded then.
   *
   * Requires an API key with role `member` or higher.
   *
   * `POST /v1/projects/{projectSlug}/experiments/{experimentId}/scores` (operation `recordExperimentScores`)
   */
  recordScores(projectSlug: string, experimentId: string, body: RecordExperimentScoresBody, options?: RequestOptions): Promise<RecordExperimentScoresResponse> {
    return this.#transport.request<RecordExperimentScoresResponse>({
      method: "POST",
      path: `/v1/projects/${encodePath(projectSlug)}/experiments/${encodePath(experimentId)}/scores`,
      body: body,
      options: options,
    });
  }

  /**
   * Results in row id order, each with the row's input and expected output at the pinned version.
   *
   * `errored=true` keeps the failed rows; `score=<name>&below=<n>` (the two go together) keeps the rows whose score of that name is lower than n (a boolean counts as 1 or 0; a row without that score is left out).
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/experiments/{experimentId}/results` (operation `listExperimentResults`)
   */
  results(projectSlug: string, experimentId: string, query?: ListExperimentResultsQuery, options?: RequestOptions): Promise<ListExperimentResultsResponse> {
    return this.#transport.request<ListExperimentResultsResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/experiments/${encodePath(experimentId)}/results`,
      query: query,
      options: options,
    });
  }

  /** Every item of `results`, page after page, following `nextCursor` until the last page. */
  iterateResults(projectSlug: string, experimentId: string, query?: Omit<ListExperimentResultsQuery, "cursor">, options?: Omit<RequestOptions, "idempotencyKey">): AsyncGenerator<ExperimentResult, void, undefined> {
    return paginate((cursor) => this.results(projectSlug, experimentId, withCursor(query, cursor), options));
  }

  /**
   * Rename an experiment, replace its metadata, or finish it.
   *
   * `status: finished` ends the experiment: results and scores sent afterwards are 409 conflict. Finishing a finished experiment changes nothing.
   *
   * Requires an API key with role `member` or higher.
   *
   * `PATCH /v1/projects/{projectSlug}/experiments/{experimentId}` (operation `updateExperiment`)
   */
  update(projectSlug: string, experimentId: string, body: UpdateExperimentBody, options?: RequestOptions): Promise<UpdateExperimentResponse> {
    return this.#transport.request<UpdateExperimentResponse>({
      method: "PATCH",
      path: `/v1/projects/${encodePath(projectSlug)}/experiments/${encodePath(experimentId)}`,
      body: body,
      options: options,
    });
  }
}

/** Members of the organisation */
export class MembersResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Invite a person to the organisation.
   *
   * The email is trimmed and stored in lower case; an email that is already a member is 409 conflict. The member is `invited` until their first sign-in, then `active`. The invitation is a one-time sign-in link, valid 7 days: the platform mails it when it has an SMTP server (`SVC_SMTP_URL`), and otherwise answers it once as `inviteUrl` for the inviter to pass on. Only an owner key may make a member an owner, or change or remove a member who is an owner.
   *
   * Requires an API key with role `admin` or higher.
   *
   * `POST /v1/members` (operation `addMember`)
   */
  add(body: AddMemberBody, options?: RequestOptions): Promise<AddMemberResponse> {
    return this.#transport.request<AddMemberResponse>({
      method: "POST",
      path: `/v1/members`,
      body: body,
      options: options,
    });
  }

  /**
   * Leave the organisation.
   *
   * Removes the caller's own membership: the person signed in, or the person who made the API key used. Their sessions in this organisation end at once; keys they made stay the organisation's. The last owner cannot leave (409 conflict); make another member an owner first. A key made by no person has no membership to leave (403).
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `DELETE /v1/account/membership` (operation `leaveOrganization`)
   */
  leave(options?: RequestOptions): Promise<void> {
    return this.#transport.request<void>({
      method: "DELETE",
      path: `/v1/account/membership`,
      options: options,
    });
  }

  /**
   * List the organisation's members.
   *
   * Cursor-paginated like every list (`{items, nextCursor, hasMore}`), oldest member first. Members' email addresses are personal data, so listing them needs an admin key, as listing API keys does.
   *
   * Requires an API key with role `admin` or higher.
   *
   * `GET /v1/members` (operation `listMembers`)
   */
  list(query?: ListMembersQuery, options?: RequestOptions): Promise<ListMembersResponse> {
    return this.#transport.request<ListMembersResponse>({
      method: "GET",
      path: `/v1/members`,
      query: query,
      options: options,
    });
  }

  /** Every item of `list`, page after page, following `nextCursor` until the last page. */
  iterate(query?: Omit<ListMembersQuery, "cursor">, options?: Omit<RequestOptions, "idempotencyKey">): AsyncGenerator<Member, void, undefined> {
    return paginate((cursor) => this.list(withCursor(query, cursor), options));
  }

  /**
   * Remove a member from the organisation.
   *
   * The member's browser sessions in this organisation end at once, at every gateway. Only an owner key may make a member an owner, or change or remove a member who is an owner. The last member with the owner role cannot be demoted or removed (409 conflict); make another member an owner first.
   *
   * Requires an API key with role `admin` or higher.
   *
   * `DELETE /v1/members/{id}` (operation `removeMember`)
   */
  remove(id: string, options?: RequestOptions): Promise<void> {
    return this.#transport.request<void>({
      method: "DELETE",
      path: `/v1/members/${encodePath(id)}`,
      options: options,
    });
  }

  /**
   * Change a member's role.
   *
   * Only an owner key may make a member an owner, or change or remove a member who is an owner. The last member with the owner role cannot be demoted or removed (409 conflict); make another member an owner first.
   *
   * Requires an API key with role `admin` or higher.
   *
   * `PATCH /v1/members/{id}` (operation `updateMember`)
   */
  update(id: string, body: UpdateMemberBody, options?: RequestOptions): Promise<UpdateMemberResponse> {
    return this.#transport.request<UpdateMemberResponse>({
      method: "PATCH",
      path: `/v1/members/${encodePath(id)}`,
      body: body,
      options: options,
    });
  }
}

/** What each model's tokens cost, to price the spans that do not say */
export class ModelPricesResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Delete one of the organisation's prices.
   *
   * The shipped default it replaced, if any, applies again to spans ingested from then on. A shipped default cannot be deleted (409 conflict): set a price for the same model and date to replace it.
   *
   * Requires an API key with role `admin` or higher.
   *
   * `DELETE /v1/model-prices/{priceId}` (operation `deleteModelPrice`)
   */
  delete(priceId: string, options?: RequestOptions): Promise<void> {
    return this.#transport.request<void>({
      method: "DELETE",
      path: `/v1/model-prices/${encodePath(priceId)}`,
      options: options,
    });
  }

  /**
   * The organisation's price table: the shipped defaults and its own prices.
   *
   * Every price ingestion may use to cost a span whose exporter sent no `gen_ai.usage.cost`: input tokens times the input price plus output tokens times the output price. The shipped defaults are the providers' published list prices (see `source: default`); an organisation's own price for the same model and date replaces the default.
   *
   * A span's model takes the price of its exact name if the table has one, else of the longest prefix pattern (`gpt-4o*`) it starts with; of that model's prices, the one with the latest `effectiveFrom` on or before the span's start (UTC day).
   *
   * Sorted by model, then effectiveFrom. Changing a price never rewrites the cost of spans already stored.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/model-prices` (operation `listModelPrices`)
   */
  list(options?: RequestOptions): Promise<ListModelPricesResponse> {
    return this.#transport.request<ListModelPricesResponse>({
      method: "GET",
      path: `/v1/model-prices`,
      options: options,
    });
  }

  /**
   * Set the price of a model (or a prefix of models) from a day on.
   *
   * Creates the organisation's price for `model` and `effectiveFrom`, or replaces the one it already has for both. Spans ingested from then on whose start is on or after `effectiveFrom` take it; spans already stored keep their cost.
   *
   * A span's model takes the price of its exact name if the table has one, else of the longest prefix pattern (`gpt-4o*`) it starts with; of that model's prices, the one with the latest `effectiveFrom` on or before the span's start (UTC day).
   *
   * Requires an API key with role `admin` or higher.
   *
   * `POST /v1/model-prices` (operation `setModelPrice`)
   */
  set(body: SetModelPriceBody, options?: RequestOptions): Promise<SetModelPriceResponse> {
    return this.#transport.request<SetModelPriceResponse>({
      method: "POST",
      path: `/v1/model-prices`,
      body: body,
      options: options,
    });
  }
}

/** Organisations (operators only) */
export class OrganizationsResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Create an organisation and its first owner key (operators only).
   *
   * Authenticated with the operator token (`SVC_ADMIN_TOKEN`), not an API key. The route does not exist when the platform runs without an operator token. The first owner key's token is in this answer only; a retry with the same Idempotency-Key and body answers 201 with the same organisation and key, `apiKey.token: null` and `apiKey.tokenAlreadyShown: true`, and creates nothing. With `ownerEmail`, that person is invited as the organisation's owner member, as `POST /v1/members` invites (the link mailed, or answered once in `owner.inviteUrl`), and the key is theirs.
   *
   * Requires the operator token.
   *
   * `POST /v1/organizations` (operation `createOrganization`)
   */
  create(body: CreateOrganizationBody, options?: RequestOptions): Promise<CreateOrganizationResponse> {
    return this.#transport.request<CreateOrganizationResponse>({
      method: "POST",
      path: `/v1/organizations`,
      body: body,
      options: options,
    });
  }
}

/** Projects: the containers of datasets and traces */
export class ProjectsResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Create a project.
   *
   * The slug is derived from the name and never changes. The name must be unique within the organisation, compared without regard to case; so must the slug.
   *
   * Requires an API key with role `member` or higher.
   *
   * `POST /v1/projects` (operation `createProject`)
   */
  create(body: CreateProjectBody, options?: RequestOptions): Promise<CreateProjectResponse> {
    return this.#transport.request<CreateProjectResponse>({
      method: "POST",
      path: `/v1/projects`,
      body: body,
      options: options,
    });
  }

  /**
   * Delete a project with all its datasets.
   *
   * Deletes the project and, with it, every dataset in it: their rows, columns and versions. It cannot be undone, so it needs an admin key, while members may create and rename projects.
   *
   * Requires an API key with role `admin` or higher.
   *
   * `DELETE /v1/projects/{projectSlug}` (operation `deleteProject`)
   */
  delete(projectSlug: string, options?: RequestOptions): Promise<void> {
    return this.#transport.request<void>({
      method: "DELETE",
      path: `/v1/projects/${encodePath(projectSlug)}`,
      options: options,
    });
  }

  /**
   * One project.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}` (operation `getProject`)
   */
  get(projectSlug: string, options?: RequestOptions): Promise<GetProjectResponse> {
    return this.#transport.request<GetProjectResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}`,
      options: options,
    });
  }

  /**
   * List projects.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects` (operation `listProjects`)
   */
  list(query?: ListProjectsQuery, options?: RequestOptions): Promise<ListProjectsResponse> {
    return this.#transport.request<ListProjectsResponse>({
      method: "GET",
      path: `/v1/projects`,
      query: query,
      options: options,
    });
  }

  /** Every item of `list`, page after page, following `nextCursor` until the last page. */
  iterate(query?: Omit<ListProjectsQuery, "cursor">, options?: Omit<RequestOptions, "idempotencyKey">): AsyncGenerator<Project, void, undefined> {
    return paginate((cursor) => this.list(withCursor(query, cursor), options));
  }

  /**
   * Rename a project; its slug stays.
   *
   * The slug stays what it was at creation, so links and clients keep working. The new name must not be another project's name in the organisation, compared without regard to case.
   *
   * Requires an API key with role `member` or higher.
   *
   * `PATCH /v1/projects/{projectSlug}` (operation `updateProject`)
   */
  update(projectSlug: string, body: UpdateProjectBody, options?: RequestOptions): Promise<UpdateProjectResponse> {
    return this.#transport.request<UpdateProjectResponse>({
      method: "PATCH",
      path: `/v1/projects/${encodePath(projectSlug)}`,
      body: body,
      options: options,
    });
  }
}

/** The web application's session: signing the browser in and out (its own, not for programs) */
export class SessionsResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Sign the browser in with an API key or a one-time sign-in code.
   *
   * Answers who is signed in and the session's CSRF token, and sets the session cookie (HttpOnly, SameSite=Lax, `Secure` and named `__Host-svc_session` behind HTTPS) until the session's end; neither the key nor the session token reaches the page. A sign-in code comes from a sign-in link (an invitation, an e-mailed link, the embedded platform's first start) and works once. A request with an `Origin` must come from the platform's own. Limited per client address.
   *
   * The web application's: needs no credential.
   *
   * `POST /v1/sessions` (operation `createSession`)
   */
  create(body: CreateSessionBody, options?: RequestOptions): Promise<CreateSessionResponse> {
    return this.#transport.request<CreateSessionResponse>({
      method: "POST",
      path: `/v1/sessions`,
      body: body,
      options: options,
    });
  }

  /**
   * Sign the browser out.
   *
   * Ends the session at every gateway and clears its cookie. Needs the session's `X-CSRF-Token` and the platform's own `Origin`, as every write made with the cookie does.
   *
   * The web application's: requires its session cookie.
   *
   * `DELETE /v1/session` (operation `deleteSession`)
   */
  delete(options?: RequestOptions): Promise<void> {
    return this.#transport.request<void>({
      method: "DELETE",
      path: `/v1/session`,
      options: options,
    });
  }

  /**
   * E-mail a one-time sign-in link to a member.
   *
   * The same 202 whether or not the address is a member's: whether it is, and the mail, are decided after the answer. The link works once, within 15 minutes. Limited per client address and per address.
   *
   * The web application's: needs no credential.
   *
   * `POST /v1/session/email` (operation `emailSignInLink`)
   */
  emailLink(body: EmailSignInLinkBody, options?: RequestOptions): Promise<EmailSignInLinkResponse> {
    return this.#transport.request<EmailSignInLinkResponse>({
      method: "POST",
      path: `/v1/session/email`,
      body: body,
      options: options,
    });
  }

  /**
   * Who is signed in, and the session's CSRF token.
   *
   * A page asks it as it loads: the CSRF token lives in the page's memory only. 401 when the browser holds no session, or one that ended.
   *
   * The web application's: requires its session cookie.
   *
   * `GET /v1/session` (operation `getSession`)
   */
  get(options?: RequestOptions): Promise<GetSessionResponse> {
    return this.#transport.request<GetSessionResponse>({
      method: "GET",
      path: `/v1/session`,
      options: options,
    });
  }
}

/** Traces ingested from OpenTelemetry exporters, and their metrics, sessions and users */
export class TracesResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * One trace: its summary and every span.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/traces/{traceId}` (operation `getTrace`)
   */
  get(projectSlug: string, traceId: string, options?: RequestOptions): Promise<GetTraceResponse> {
    return this.#transport.request<GetTraceResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/traces/${encodePath(traceId)}`,
      options: options,
    });
  }

  /**
   * Ingest spans from any OpenTelemetry exporter (OTLP/HTTP, JSON or protobuf).
   *
   * Point an OpenTelemetry OTLP/HTTP exporter at this URL, with `Authorization: Bearer <API_KEY>` and `X-Svc-Project: <projectSlug>` headers: JSON (`Content-Type: application/json`) or protobuf (`application/x-protobuf`, an `ExportTraceServiceRequest` of opentelemetry-proto), either gzip-compressed or not. A protobuf body is decoded into the JSON encoding and checked by the same rules; its answer is an `ExportTraceServiceResponse` in protobuf. Protobuf bytes that are not such a message are 400 validation_failed.
   *
   * Spans of one trace may arrive in several requests: each span is stored once per (project, traceId, spanId), a re-sent span replaces the earlier copy, and the trace's summary is recomputed from all its spans.
   *
   * A request is all or nothing: a body that is not OTLP, or any span with a missing or malformed id or time (a time is at most 9223372036854775807 ns, and a span must not end before it starts), is 400 validation_failed naming the problem, and nothing of the request is stored. Success is OTLP's `{partialSuccess: {}}`.
   *
   * Text that cannot be stored as Unicode (the character U+0000, a UTF-16 surrogate without its pair) is stored with U+FFFD in its place, where every other operation refuses it.
   *
   * Requires an API key with role `member` or higher.
   *
   * `POST /v1/traces` (operation `ingestTraces`)
   */
  ingest(body: IngestTracesBody, options: IngestTracesOptions): Promise<IngestTracesResponse> {
    return this.#transport.request<IngestTracesResponse>({
      method: "POST",
      path: `/v1/traces`,
      body: body,
      headers: { "X-Svc-Project": options?.svcProject },
      options: options,
    });
  }

  /**
   * List the project's traces, sorted and filtered.
   *
   * Cursor-paginated like every list, with the cursor and limit in the body. `sortBy` defaults to `startTime`, `sortDirection` to `desc`. `filters` is a list of `{field, op, value}` conditions that all hold; a field that is not filterable is 400 validation_failed naming it. A cursor only continues the list it came from (same sort and filters).
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `POST /v1/projects/{projectSlug}/traces/list` (operation `listTraces`)
   */
  list(projectSlug: string, body?: ListTracesBody, options?: RequestOptions): Promise<ListTracesResponse> {
    return this.#transport.request<ListTracesResponse>({
      method: "POST",
      path: `/v1/projects/${encodePath(projectSlug)}/traces/list`,
      body: body ?? {},
      options: options,
    });
  }

  /** Every item of `list`, page after page, following `nextCursor` until the last page. */
  iterate(projectSlug: string, body?: Omit<ListTracesBody, "cursor">, options?: Omit<RequestOptions, "idempotencyKey">): AsyncGenerator<Trace, void, undefined> {
    return paginate((cursor) => this.list(projectSlug, withCursor(body, cursor), options));
  }

  /**
   * The project's traces over time: counts, errors, latency percentiles, tokens and cost per bucket.
   *
   * One point per bucket (UTC minute, hour or day) from `from` rounded down to its bucket to `to` rounded up, and per group with `groupBy`; a bucket without traces is there with zeros. A trace counts in the bucket where it started. More than 1440 buckets is 400 validation_failed naming the limit: ask for a wider bucket or a shorter range.
   *
   * `groupBy=model` and `groupBy=tag` count a trace once in each of its models or tags (and in group null if it has none), so groups may add up to more than all traces. The 20 groups with the most traces in the range have their own series; the others are summed into one series with `otherGroups: true`.
   *
   * The numbers come from totals the platform keeps per minute and per hour as spans arrive, so a page over months answers as fast as one over an hour. Counts, tokens and cost are exact; latencyP50Ms and latencyP95Ms are read from a histogram of trace durations whose buckets are 2^(1/8) apart (about 9%), and so are within 5% of the exact percentile. A trace whose spans arrive over several requests is counted once, with its summary as it stands.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/traces/metrics` (operation `getTraceMetrics`)
   */
  metrics(projectSlug: string, query: GetTraceMetricsQuery, options?: RequestOptions): Promise<GetTraceMetricsResponse> {
    return this.#transport.request<GetTraceMetricsResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/traces/metrics`,
      query: query,
      options: options,
    });
  }

  /**
   * The project's sessions: traces grouped by session.id, with their totals.
   *
   * Cursor-paginated like every list. `sortBy` defaults to `lastTime` and `sortDirection` to `desc`; `from` and `to` keep only the traces that started in that range, and the totals count only those. A trace's session is the `session.id` (or `gen_ai.conversation.id`) of its root span, or of its earliest span that has one; traces without one are in no session.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/traces/sessions` (operation `listTraceSessions`)
   */
  sessions(projectSlug: string, query?: ListTraceSessionsQuery, options?: RequestOptions): Promise<ListTraceSessionsResponse> {
    return this.#transport.request<ListTraceSessionsResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/traces/sessions`,
      query: query,
      options: options,
    });
  }

  /** Every item of `sessions`, page after page, following `nextCursor` until the last page. */
  iterateSessions(projectSlug: string, query?: Omit<ListTraceSessionsQuery, "cursor">, options?: Omit<RequestOptions, "idempotencyKey">): AsyncGenerator<{
    traces: number;
    /** Traces with at least one span whose status is error */
    errors: number;
    tokensInput: number;
    tokensOutput: number;
    tokensTotal: number;
    costMicrocents: number;
    /** Start of the earliest trace */
    firstTime: string;
    /** Start of the latest trace */
    lastTime: string;
    sessionId: string;
  }, void, undefined> {
    return paginate((cursor) => this.sessions(projectSlug, withCursor(query, cursor), options));
  }

  /**
   * The project's users: traces grouped by user.id, with their totals.
   *
   * Cursor-paginated like every list. `sortBy` defaults to `lastTime` and `sortDirection` to `desc`; `from` and `to` keep only the traces that started in that range, and the totals count only those. A trace's user is the `user.id` (or `enduser.id`) of its root span, or of its earliest span that has one; traces without one belong to no user.
   *
   * Requires an API key with role `viewer` or higher.
   *
   * `GET /v1/projects/{projectSlug}/traces/users` (operation `listTraceUsers`)
   */
  users(projectSlug: string, query?: ListTraceUsersQuery, options?: RequestOptions): Promise<ListTraceUsersResponse> {
    return this.#transport.request<ListTraceUsersResponse>({
      method: "GET",
      path: `/v1/projects/${encodePath(projectSlug)}/traces/users`,
      query: query,
      options: options,
    });
  }

  /** Every item of `users`, page after page, following `nextCursor` until the last page. */
  iterateUsers(projectSlug: string, query?: Omit<ListTraceUsersQuery, "cursor">, options?: Omit<RequestOptions, "idempotencyKey">): AsyncGenerator<{
    traces: number;
    /** Traces with at least one span whose status is error */
    errors: number;
    tokensInput: number;
    tokensOutput: number;
    tokensTotal: number;
    costMicrocents: number;
    /** Start of the earliest trace */
    firstTime: string;
    /** Start of the latest trace */
    lastTime: string;
    userId: string;
  }, void, undefined> {
    return paginate((cursor) => this.users(projectSlug, withCursor(query, cursor), options));
  }
}

/** Every resource of the API, each with a method per operation. */
export class Resources {
  readonly account: AccountResource;
  readonly apiKeys: ApiKeysResource;
  readonly datasets: DatasetsResource;
  readonly experiments: ExperimentsResource;
  readonly members: MembersResource;
  readonly modelPrices: ModelPricesResource;
  readonly organizations: OrganizationsResource;
  readonly projects: ProjectsResource;
  readonly sessions: SessionsResource;
  readonly traces: TracesResource;

  constructor(transport: Transport) {
    this.account = new AccountResource(transport);
    this.apiKeys = new ApiKeysResource(transport);
    this.datasets = new DatasetsResource(transport);
    this.experiments = new ExperimentsResource(transport);
    this.members = new MembersResource(transport);
    this.modelPrices = new ModelPricesResource(transport);
    this.organizations = new OrganizationsResource(transport);
    this.projects = new ProjectsResource(transport);
    this.sessions = new SessionsResource(transport);
    this.traces = new TracesResource(transport);
  }
}

/** Where each operation of the API lives in this SDK, by operationId. */
export const operations = {
  getAccount: { resource: "account", method: "get", httpMethod: "GET", path: "/v1/account" },
  updateAccountUser: { resource: "account", method: "updateUser", httpMethod: "PATCH", path: "/v1/account/user" },
  createApiKey: { resource: "apiKeys", method: "create", httpMethod: "POST", path: "/v1/api-keys" },
  deleteApiKey: { resource: "apiKeys", method: "delete", httpMethod: "DELETE", path: "/v1/api-keys/{id}" },
  getApiKey: { resource: "apiKeys", method: "get", httpMethod: "GET", path: "/v1/api-keys/{id}" },
  listApiKeys: { resource: "apiKeys", method: "list", httpMethod: "GET", path: "/v1/api-keys" },
  updateApiKey: { resource: "apiKeys", method: "update", httpMethod: "PATCH", path: "/v1/api-keys/{id}" },
  copyDatasetRows: { resource: "datasets", method: "copyRows", httpMethod: "POST", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/copy" },
  countDatasetRows: { resource: "datasets", method: "countRows", httpMethod: "GET", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/row-count" },
  createDataset: { resource: "datasets", method: "create", httpMethod: "POST", path: "/v1/projects/{projectSlug}/datasets" },
  createDatasetColumn: { resource: "datasets", method: "createColumn", httpMethod: "POST", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/columns" },
  deleteDataset: { resource: "datasets", method: "delete", httpMethod: "DELETE", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}" },
  deleteDatasetColumn: { resource: "datasets", method: "deleteColumn", httpMethod: "DELETE", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/columns/{identifier}" },
  deleteDatasetRows: { resource: "datasets", method: "deleteRows", httpMethod: "DELETE", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows" },
  diffDatasetVersions: { resource: "datasets", method: "diff", iterator: "iterateDiff", httpMethod: "GET", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/diff" },
  getDataset: { resource: "datasets", method: "get", httpMethod: "GET", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}" },
  getDatasetImport: { resource: "datasets", method: "getImport", httpMethod: "GET", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/imports/{importId}" },
  getDatasetRow: { resource: "datasets", method: "getRow", httpMethod: "GET", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/{rowId}" },
  getDatasetVersion: { resource: "datasets", method: "getVersion", httpMethod: "GET", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/versions/{version}" },
  importDatasetRowsFromTraces: { resource: "datasets", method: "importTraces", httpMethod: "POST", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/import/traces" },
  insertDatasetRows: { resource: "datasets", method: "insertRows", httpMethod: "POST", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows" },
  listDatasets: { resource: "datasets", method: "list", iterator: "iterate", httpMethod: "GET", path: "/v1/projects/{projectSlug}/datasets" },
  listDatasetColumns: { resource: "datasets", method: "listColumns", httpMethod: "GET", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/columns" },
  listDatasetRows: { resource: "datasets", method: "listRows", iterator: "iterateRows", httpMethod: "GET", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows" },
  listDatasetVersions: { resource: "datasets", method: "listVersions", iterator: "iterateVersions", httpMethod: "GET", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/versions" },
  reorderDatasetColumns: { resource: "datasets", method: "reorderColumns", httpMethod: "POST", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/columns/reorder" },
  restoreDatasetColumn: { resource: "datasets", method: "restoreColumn", httpMethod: "POST", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/columns/{identifier}/restore" },
  restoreDatasetVersion: { resource: "datasets", method: "restoreVersion", httpMethod: "POST", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/versions/{version}/restore" },
  getDatasetRowHistory: { resource: "datasets", method: "rowHistory", iterator: "iterateRowHistory", httpMethod: "GET", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/{rowId}/history" },
  updateDataset: { resource: "datasets", method: "update", httpMethod: "PATCH", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}" },
  updateDatasetColumn: { resource: "datasets", method: "updateColumn", httpMethod: "PATCH", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/columns/{identifier}" },
  updateDatasetRow: { resource: "datasets", method: "updateRow", httpMethod: "PATCH", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/{rowId}" },
  updateDatasetRows: { resource: "datasets", method: "updateRows", httpMethod: "PATCH", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows" },
  compareExperiments: { resource: "experiments", method: "compare", iterator: "iterateCompare", httpMethod: "GET", path: "/v1/projects/{projectSlug}/experiments/{experimentId}/compare/{otherExperimentId}" },
  createExperiment: { resource: "experiments", method: "create", httpMethod: "POST", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/experiments" },
  deleteExperiment: { resource: "experiments", method: "delete", httpMethod: "DELETE", path: "/v1/projects/{projectSlug}/experiments/{experimentId}" },
  getExperiment: { resource: "experiments", method: "get", httpMethod: "GET", path: "/v1/projects/{projectSlug}/experiments/{experimentId}" },
  listExperiments: { resource: "experiments", method: "list", iterator: "iterate", httpMethod: "GET", path: "/v1/projects/{projectSlug}/datasets/{datasetSlug}/experiments" },
  listExperimentPendingRows: { resource: "experiments", method: "pending", iterator: "iteratePending", httpMethod: "GET", path: "/v1/projects/{projectSlug}/experiments/{experimentId}/pending" },
  recordExperimentResults: { resource: "experiments", method: "recordResults", httpMethod: "POST", path: "/v1/projects/{projectSlug}/experiments/{experimentId}/results" },
  recordExperimentScores: { resource: "experiments", method: "recordScores", httpMethod: "POST", path: "/v1/projects/{projectSlug}/experiments/{experimentId}/scores" },
  listExperimentResults: { resource: "experiments", method: "results", iterator: "iterateResults", httpMethod: "GET", path: "/v1/projects/{projectSlug}/experiments/{experimentId}/results" },
  updateExperiment: { resource: "experiments", method: "update", httpMethod: "PATCH", path: "/v1/projects/{projectSlug}/experiments/{experimentId}" },
  addMember: { resource: "members", method: "add", httpMethod: "POST", path: "/v1/members" },
  leaveOrganization: { resource: "members", method: "leave", httpMethod: "DELETE", path: "/v1/account/membership" },
  listMembers: { resource: "members", method: "list", iterator: "iterate", httpMethod: "GET", path: "/v1/members" },
  removeMember: { resource: "members", method: "remove", httpMethod: "DELETE", path: "/v1/members/{id}" },
  updateMember: { resource: "members", method: "update", httpMethod: "PATCH", path: "/v1/members/{id}" },
  deleteModelPrice: { resource: "modelPrices", method: "delete", httpMethod: "DELETE", path: "/v1/model-prices/{priceId}" },
  listModelPrices: { resource: "modelPrices", method: "list", httpMethod: "GET", path: "/v1/model-prices" },
  setModelPrice: { resource: "modelPrices", method: "set", httpMethod: "POST", path: "/v1/model-prices" },
  createOrganization: { resource: "organizations", method: "create", httpMethod: "POST", path: "/v1/organizations" },
  createProject: { resource: "projects", method: "create", httpMethod: "POST", path: "/v1/projects" },
  deleteProject: { resource: "projects", method: "delete", httpMethod: "DELETE", path: "/v1/projects/{projectSlug}" },
  getProject: { resource: "projects", method: "get", httpMethod: "GET", path: "/v1/projects/{projectSlug}" },
  listProjects: { resource: "projects", method: "list", iterator: "iterate", httpMethod: "GET", path: "/v1/projects" },
  updateProject: { resource: "projects", method: "update", httpMethod: "PATCH", path: "/v1/projects/{projectSlug}" },
  createSession: { resource: "sessions", method: "create", httpMethod: "POST", path: "/v1/sessions" },
  deleteSession: { resource: "sessions", method: "delete", httpMethod: "DELETE", path: "/v1/session" },
  emailSignInLink: { resource: "sessions", method: "emailLink", httpMethod: "POST", path: "/v1/session/email" },
  getSession: { resource: "sessions", method: "get", httpMethod: "GET", path: "/v1/session" },
  getTrace: { resource: "traces", method: "get", httpMethod: "GET", path: "/v1/projects/{projectSlug}/traces/{traceId}" },
  ingestTraces: { resource: "traces", method: "ingest", httpMethod: "POST", path: "/v1/traces" },
  listTraces: { resource: "traces", method: "list", iterator: "iterate", httpMethod: "POST", path: "/v1/projects/{projectSlug}/traces/list" },
  getTraceMetrics: { resource: "traces", method: "metrics", httpMethod: "GET", path: "/v1/projects/{projectSlug}/traces/metrics" },
  listTraceSessions: { resource: "traces", method: "sessions", iterator: "iterateSessions", httpMethod: "GET", path: "/v1/projects/{projectSlug}/traces/sessions" },
  listTraceUsers: { resource: "traces", method: "users", iterator: "iterateUsers", httpMethod: "GET", path: "/v1/projects/{projectSlug}/traces/users" },
} as const;
