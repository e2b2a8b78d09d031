import type { ColumnType, Generated, JSONColumnType } from "kysely";

/** Kysely's view of the tables. Only repositories use these types; use-cases speak the contract's. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** A moment that may not have come yet (a key's last use, a revocation): null until it does. */
type NullableTimestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;
type Json = ColumnType<unknown, string, string>;
type StringList = JSONColumnType<string[], string, string>;
/** bigint: `pg` reads it as a string; repositories cast it to text so every driver agrees. */
type Int64 = ColumnType<string, string | number | bigint, string | number | bigint>;

export interface OrganizationsTable {
  id: string;
  name: string;
  slug: string;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  name: string;
  role: string;
  token_hash: string;
  token_last4: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  created_by_user_id: Generated<string | null>;
}

/** A person, once across organisations (docs/decisions/0038). */
export interface UsersTable {
  id: string;
  email: string | null;
  name: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProjectsTable {
  id: string;
  organization_id: string;
  slug: string;
  name: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MembersTable {
  id: string;
  organization_id: string;
  user_id: string;
  role: string;
  /** "invited" until the member's first sign-in, then "active". */
  status: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DatasetsTable {
  id: string;
  organization_id: string;
  project_id: string;
  slug: string;
  name: string;
  description: string | null;
  current_version: Generated<number>;
  /** Rows at current_version, kept by the writer with each version. */
  row_count: Generated<number>;
  /**
   * The import writing version current_version + 1 in pieces (migration 0028): until it is done or
   * undone, no other change takes a version of the dataset.
   */
  pending_import_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DatasetColumnsTable {
  dataset_id: string;
  identifier: string;
  name: string;
  kind: "builtin" | "custom";
  field: string | null;
  position: number;
  removed_at: NullableTimestamp;
}

/** A row and its cells, as the live row and each of its revisions store them (decision 0001). */
interface StoredRowColumns {
  dataset_id: string;
  row_id: string;
  input: Json;
  output: Json;
  expected_output: Json;
  metadata: Json;
  custom: JSONColumnType<Record<string, unknown>, string, string>;
  created_at: Timestamp;
}

export interface DatasetRowsTable extends StoredRowColumns {
  version: number;
}

export interface RowRevisionsTable extends StoredRowColumns {
  version_from: number;
  version_to: number | null;
  deleted: boolean;
}

export interface DatasetVersionsTable {
  id: string;
  dataset_id: string;
  version: number;
  operation: string;
  rows_inserted: number;
  rows_updated: number;
  rows_deleted: number;
  /** Rows the dataset has at this version. */
  row_count: Generated<number>;
  actor_kind: string;
  actor_id: string;
  created_at: Timestamp;
}

export interface ImportsTable {
  id: string;
  organization_id: string;
  dataset_id: string;
  idempotency_key: string | null;
  state: string;
  format: string;
  mode: string;
  bytes_read: ColumnType<string, string | number | bigint | undefined, string | number | bigint>;
  rows_read: ColumnType<string, string | number | bigint | undefined, string | number | bigint>;
  version_id: string | null;
  version: number | null;
  rows_inserted: number | null;
  rows_updated: number | null;
  error: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface ImportRowsTable {
  import_id: string;
  seq: number;
  line: Int64;
  row_id: string;
  cells: Json;
  custom: Json;
}

export interface IdempotencyRecordsTable {
  organization_id: string;
  key: string;
  operation_id: string;
  request_hash: string;
  response: ColumnType<unknown, string | undefined, string>;
  created_at: Timestamp;
}

export interface OAuthClientsTable {
  id: string;
  name: string | null;
  uri: string | null;
  scope: string | null;
  redirect_uris: StringList;
  grant_types: StringList;
  created_at: Timestamp;
}

export interface OAuthGrantsTable {
  id: string;
  organization_id: string;
  client_id: string;
  api_key_id: string;
  role: string;
  scope: string | null;
  resource: string | null;
  created_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface OAuthCodesTable {
  code_hash: string;
  client_id: string;
  organization_id: string;
  api_key_id: string;
  role: string;
  redirect_uri: string;
  code_challenge: string;
  scope: string | null;
  resource: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  grant_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface OAuthTokensTable {
  token_hash: string;
  grant_id: string;
  kind: "access" | "refresh";
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface BrowserSessionsTable {
  id: string;
  token_hash: string;
  organization_id: string;
  /** The key a session opened with a key acts for; null for a member's own session. */
  api_key_id: string | null;
  member_id: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  ended_at: NullableTimestamp;
}

export interface SignInCodesTable {
  code_hash: string;
  api_key_id: string | null;
  member_id: string | null;
  /** For a code sent by e-mail: the address, which must still be the member's when it is used. */
  email: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

/**
 * What a span tells about its trace (who, which models, how many tokens), read from its attributes at
 * ingestion: the span keeps its own, and its trace's summary the same columns gathered over its spans.
 */
export interface TraceFactColumns {
  session_id: string | null;
  user_id: string | null;
  tags: StringList;
  models: StringList;
  tokens_input: Int64;
  tokens_output: Int64;
}

export interface SpansTable extends TraceFactColumns {
  project_id: string;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  kind: number;
  start_ns: Int64;
  end_ns: Int64;
  status_code: number;
  status_message: string | null;
  attributes: Json;
  resource_attributes: Json;
  scope: Json;
  events: Json;
  links: Json;
  /** Null when neither the exporter nor the price table said what the span cost. */
  cost_microcents: Int64 | null;
  input: Json;
  output: Json;
  received_at: Timestamp;
}

/** Totals of the traces that started in one minute or hour, per group: see migration 0022. */
export interface TraceMetricsTable {
  project_id: string;
  width: "minute" | "hour";
  grouping: "all" | "model" | "rootSpanName" | "tag";
  bucket_start: Timestamp;
  group_value: string;
  traces: Int64;
  errors: Int64;
  tokens_input: Int64;
  tokens_output: Int64;
  cost_microcents: Int64;
  latency: Json;
}

/** A trace whose summary and metrics wait for its newest spans (migration 0027). */
export interface TraceFoldsTable {
  project_id: string;
  trace_id: string;
  marked_at: Generated<Timestamp>;
}

export interface ModelPricesTable {
  id: string;
  organization_id: string;
  model: string;
  /** A day, as YYYY-MM-DD. */
  effective_from: ColumnType<string, string, string>;
  input_microcents_per_million: Int64;
  output_microcents_per_million: Int64;
  updated_at: Generated<Date>;
}

export interface TracesTable extends TraceFactColumns {
  project_id: string;
  trace_id: string;
  span_count: number;
  error_count: number;
  start_ns: Int64;
  end_ns: Int64;
  duration_ns: Int64;
  root_span_id: string | null;
  root_span_name: string | null;
  tokens_total: Int64;
  cost_total_microcents: Int64;
  input: Json;
  output: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ExperimentsTable {
  id: string;
  organization_id: string;
  dataset_id: string;
  name: string;
  version: number;
  base_experiment_id: string | null;
  metadata: Json;
  status: string;
  evaluators: Json;
  row_count: number;
  actor_kind: string;
  actor_id: string;
  created_at: Timestamp;
  finished_at: NullableTimestamp;
}

export interface ExperimentResultsTable {
  experiment_id: string;
  row_id: string;
  row_version: number;
  output: Json;
  trace_id: string | null;
  latency_ms: number | null;
  tokens: number | null;
  cost_microcents: ColumnType<string | null, string | number | null, string | number | null>;
  error: string | null;
  carried_from: string | null;
  created_at: Timestamp;
}

export interface ExperimentScoresTable {
  experiment_id: string;
  /** '' for a score of the experiment as a whole. */
  row_id: string;
  name: string;
  value_kind: "number" | "boolean" | "category";
  value_number: number | null;
  value_text: string | null;
  source: string;
  comment: string | null;
  actor_kind: string;
  actor_id: string;
  created_at: Timestamp;
}

/** How many times an experiment's results or scores were written; no row is revision 0. */
export interface ExperimentRevisionsTable {
  experiment_id: string;
  revision: Int64;
}

/** A comparison of two experiments as they stood at their revisions; `summary` is written last. */
export interface ExperimentComparisonsTable {
  id: ColumnType<string, never, never>;
  a_id: string;
  b_id: string;
  a_revision: Int64;
  b_revision: Int64;
  summary: Json | null;
  created_at: Timestamp;
}

export interface ExperimentComparedRowsTable {
  comparison_id: Int64;
  rank: number;
  row_id: string;
  change: string;
  row_changed: boolean;
}

export interface Database {
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  users: UsersTable;
  projects: ProjectsTable;
  members: MembersTable;
  datasets: DatasetsTable;
  dataset_columns: DatasetColumnsTable;
  dataset_rows: DatasetRowsTable;
  row_revisions: RowRevisionsTable;
  dataset_versions: DatasetVersionsTable;
  imports: ImportsTable;
  import_rows: ImportRowsTable;
  idempotency_records: IdempotencyRecordsTable;
  spans: SpansTable;
  traces: TracesTable;
  trace_metrics: TraceMetricsTable;
  trace_folds: TraceFoldsTable;
  model_prices: ModelPricesTable;
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokensTable;
  browser_sessions: BrowserSessionsTable;
  sign_in_codes: SignInCodesTable;
  experiments: ExperimentsTable;
  experiment_results: ExperimentResultsTable;
  experiment_scores: ExperimentScoresTable;
  experiment_revisions: ExperimentRevisionsTable;
  experiment_comparisons: ExperimentComparisonsTable;
  experiment_compared_rows: ExperimentComparedRowsTable;
}
