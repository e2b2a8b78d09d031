import type { Components, JsonSchema } from "./json-schema";

/**
 * The command tree: one walk of the OpenAPI document, from which the parser, `--schema`, completion,
 * the manual page and the agent skill are all produced.
 */
export interface CommandTree {
  title: string;
  apiVersion: string;
  resources: Resource[];
  local: LocalGroup[];
  globalFlags: FlagSpec[];
  schemes: SecurityScheme[];
  components: Components;
}

export interface Resource {
  name: string;
  description: string;
  commands: ApiCommand[];
}

/**
 * `file`: a path on this machine whose content is the request body (an upload); `local`: a flag the
 * CLI itself acts on, never sent (the regression gate of a comparison).
 */
export type Location = "path" | "query" | "header" | "body" | "file" | "local";
/** How a flag's text becomes a value: as is, as a number, as a boolean, or as JSON. */
export type ValueKind = "string" | "integer" | "number" | "boolean" | "json";

export interface Input {
  /** The name in the API: a parameter name, a header name or a body field. */
  name: string;
  /** The flag, without dashes: `project-slug`. */
  flag: string;
  location: Location;
  kind: ValueKind;
  required: boolean;
  /** The JSON value may be null: the word `null` gives it. */
  nullable: boolean;
  /** A JSON flag that also accepts a plain word as a string. */
  acceptsString: boolean;
  default?: unknown;
  description?: string;
  enum?: string[];
  schema: JsonSchema;
}

export interface ApiCommand {
  resource: string;
  name: string;
  operationId: string;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  summary: string;
  description: string;
  paginated: boolean;
  /** Security schemes the operation accepts, in order of preference. */
  security: string[];
  inputs: Input[];
  body: { required: boolean; schema: JsonSchema; examples: unknown[] } | null;
  /**
   * `file`: the media types of a file the operation answers with instead of JSON (an export); its
   * `format` query parameter is the global --format (csv, jsonl or parquet), and the body goes to
   * standard output as it arrives.
   */
  output: { status: number; schema: JsonSchema | null; file?: string[] };
  /** Set for an upload: the media types the body may have, the file's extension choosing one. */
  upload?: string[];
  /** Inputs that may also be given as arguments, in this order (`svc experiments compare A B`). */
  positional?: string[];
  /** Set when the answer is a stream of Server-Sent Events that stays open (`svc datasets watch`). */
  events?: true;
  errors: { status: number; codes: string[] }[];
}

export interface FlagSpec {
  flag: string;
  short?: string;
  /** Placeholder of the value, absent for a switch. */
  value?: string;
  values?: string[];
  description: string;
}

export interface LocalCommand {
  name: string;
  summary: string;
  description: string;
  argument?: { name: string; values: string[]; required: boolean };
  flags: FlagSpec[];
}

export interface LocalGroup {
  /** `auth` for `svc auth login`; empty for a top-level command such as `svc man`. */
  group: string;
  description: string;
  commands: LocalCommand[];
}

export interface SecurityScheme {
  name: string;
  description: string;
  /** The environment variable that supplies it. */
  env: string;
}
