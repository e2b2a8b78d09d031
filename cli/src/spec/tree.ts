import { type Components, type JsonSchema, resolveSchema } from "./json-schema";

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

/** `file`: a path on this machine whose content is the request body (an upload). */
export type Location = "path" | "query" | "header" | "body" | "file";
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

export const formats = ["table", "json", "jsonl", "yaml", "csv", "raw", "http", "parquet"] as const;
export type Format = (typeof formats)[number];
export const shells = ["bash", "zsh", "fish", "powershell", "elvish"] as const;

export const globalFlags: FlagSpec[] = [
  {
    flag: "format",
    value: "format",
    values: [...formats],
    description: "Output format (default: SVC_OUTPUT, else table on a terminal and json otherwise)",
  },
  { flag: "query", value: "jmespath", description: "JMESPath expression applied to the response" },
  { flag: "dry-run", description: "Validate locally and print the request without sending it" },
  { flag: "quiet", short: "q", description: "No output on success" },
  { flag: "debug", description: "Print the HTTP request and response on standard error (secrets redacted)" },
  { flag: "schema", description: "Print machine-readable help as JSON" },
  { flag: "page-all", description: "Follow nextCursor and print every item of a paginated list" },
  { flag: "max-items", value: "n", description: "Stop after this many items (implies --page-all)" },
];

export const localGroups: LocalGroup[] = [
  {
    group: "auth",
    description: "Manage the stored API key",
    commands: [
      {
        name: "login",
        summary: "Check an API key against the API and store it in the system's secret store",
        description:
          "Prompts for the key without echo, or reads it from standard input with --with-token. The key is checked with GET /v1/account before it is stored under service `svc`, account `ApiKeyAuth`.",
        flags: [{ flag: "with-token", description: "Read the key from standard input" }],
      },
      {
        name: "status",
        summary: "Show every credential source, which one is used, and whether the platform accepts it",
        description:
          "Asks the platform (GET /v1/account) whether the key in use is accepted, never showing it. " +
          "Exit 0 when it is accepted, 2 when there is none or it is refused, 4 when the platform " +
          "cannot be reached. With --format json the same as data.",
        flags: [],
      },
      {
        name: "logout",
        summary: "Remove the stored API key from the secret store",
        description: "SVC_API_KEY, when set, is not affected.",
        flags: [],
      },
    ],
  },
  {
    group: "",
    description: "",
    commands: [
      {
        name: "completion",
        summary: "Print a shell completion script",
        description:
          "bash: `source <(svc completion bash)`; zsh: `source <(svc completion zsh)`; fish: `svc completion fish | source`; PowerShell: `svc completion powershell | Out-String | Invoke-Expression`; elvish: `eval (svc completion elvish | slurp)`.",
        argument: { name: "shell", values: [...shells], required: true },
        flags: [],
      },
      {
        name: "man",
        summary: "Print the manual page (roff)",
        description: "For example `svc man > svc.1 && man ./svc.1`.",
        flags: [],
      },
      {
        name: "generate-skills",
        summary: "Write an Agent Skill describing every command",
        description:
          "Writes SKILL.md and one reference page per resource. Needs no network and no key; two runs write identical files.",
        flags: [{ flag: "dir", value: "dir", description: "Where to write it (default: ./skills/svc)" }],
      },
    ],
  },
];

/** Headers the CLI sets itself on every request, so they are not flags. */
const managedHeaders = new Set(["idempotency-key", "x-request-id", "authorization", "content-type"]);

interface OpenApiParameter {
  $ref?: string;
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  operationId: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: OpenApiParameter[];
  requestBody?: {
    required?: boolean;
    content?: Record<string, { schema?: JsonSchema; examples?: Record<string, { value: unknown }> }>;
  };
  responses?: Record<string, OpenApiResponse>;
  security?: Record<string, string[]>[];
  "x-svc-command"?: string;
  "x-svc-paginated"?: boolean;
  "x-svc-file"?: "upload" | "download";
}

interface OpenApiResponse {
  $ref?: string;
  description?: string;
  content?: Record<string, { schema?: JsonSchema }>;
}

export interface OpenApiDocument {
  info: { title: string; version: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  security?: Record<string, string[]>[];
  components?: {
    schemas?: Components;
    parameters?: Record<string, OpenApiParameter>;
    responses?: Record<string, OpenApiResponse>;
    securitySchemes?: Record<string, { description?: string; type?: string; scheme?: string }>;
  };
}

const methods = ["get", "post", "patch", "put", "delete"] as const;

/**
 * The command tree of an OpenAPI document: one resource per tag, one command per operation. A tag
 * that would shadow a local command, or two operations that would be the same command, is an error:
 * the build (which runs the CLI) and the tests fail instead of a command silently disappearing.
 */
export function buildTree(doc: OpenApiDocument): CommandTree {
  const components = doc.components?.schemas ?? {};
  const reserved = new Set(localGroups.flatMap((g) => (g.group ? [g.group] : g.commands.map((c) => c.name))));
  const byResource = new Map<string, ApiCommand[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of methods) {
      const op = item[method];
      if (!op) continue;
      const command = buildCommand(doc, path, method, op, components);
      if (reserved.has(command.resource)) {
        throw new Error(
          `the API tag "${command.resource}" (operation ${command.operationId}) is also the name of the local command \`svc ${command.resource}\`: rename the tag`,
        );
      }
      const siblings = byResource.get(command.resource) ?? [];
      const twin = siblings.find((other) => other.name === command.name);
      if (twin) {
        throw new Error(
          `operations ${twin.operationId} and ${command.operationId} would both be \`svc ${command.resource} ${command.name}\`: give one an x-svc-command`,
        );
      }
      byResource.set(command.resource, [...siblings, command]);
    }
  }
  const descriptions = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description ?? ""]));
  const resources = [...byResource.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, commands]) => ({
      name,
      description: descriptions.get(name) ?? "",
      commands: commands.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    }));
  // Bearer credentials only: the browser's session cookie is not something a command line holds.
  const schemes = Object.entries(doc.components?.securitySchemes ?? {})
    .filter(([, scheme]) => scheme.type === "http" && scheme.scheme?.toLowerCase() === "bearer")
    .map(([name, scheme]) => ({
      name,
      description: scheme.description ?? "",
      env: envForScheme(name),
    }));
  return {
    title: doc.info.title,
    apiVersion: doc.info.version,
    resources,
    local: localGroups,
    globalFlags,
    schemes,
    components,
  };
}

/** `ApiKeyAuth` → `SVC_API_KEY`; `OperatorToken` → `SVC_ADMIN_TOKEN`; others → `SVC_<NAME>`. */
export function envForScheme(name: string): string {
  if (name === "ApiKeyAuth") return "SVC_API_KEY";
  if (name === "OperatorToken") return "SVC_ADMIN_TOKEN";
  return `SVC_${name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()}`;
}

function buildCommand(
  doc: OpenApiDocument,
  path: string,
  method: (typeof methods)[number],
  op: OpenApiOperation,
  components: Components,
): ApiCommand {
  const inputs: Input[] = [];
  for (const raw of op.parameters ?? []) {
    const parameter = raw.$ref ? doc.components?.parameters?.[raw.$ref.split("/").pop() ?? ""] : raw;
    if (!parameter || parameter.in === "cookie") continue;
    if (parameter.in === "header" && managedHeaders.has(parameter.name.toLowerCase())) continue;
    inputs.push(
      makeInput(
        parameter.name,
        parameter.in,
        parameter.schema ?? {},
        parameter.in === "path" || parameter.required === true,
        parameter.description,
        components,
      ),
    );
  }

  let body: ApiCommand["body"] = null;
  const media = op.requestBody?.content?.["application/json"];
  if (media?.schema) {
    const schema = resolveSchema(media.schema, components);
    const required = new Set(schema.required ?? []);
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      inputs.push(makeInput(name, "body", property, required.has(name), property.description, components));
    }
    const examples = Object.values(media.examples ?? {}).map((example) => example.value);
    body = { required: op.requestBody?.required === true, schema: media.schema, examples };
  }
  const [status, success] = Object.entries(op.responses ?? {}).find(([code]) => code.startsWith("2")) ?? [
    "200",
    undefined,
  ];
  const mediaTypes = Object.keys(success?.content ?? {});
  const file = mediaTypes.length > 0 && !mediaTypes.includes("application/json") ? mediaTypes : undefined;
  if (file) {
    const format = inputs.findIndex((input) => input.location === "query" && input.name === "format");
    if (format >= 0) inputs.splice(format, 1);
  }
  const upload = op["x-svc-file"] === "upload" ? Object.keys(op.requestBody?.content ?? {}) : undefined;
  if (upload) {
    inputs.push({
      name: "file",
      flag: "file",
      location: "file",
      kind: "string",
      required: true,
      nullable: false,
      acceptsString: true,
      description:
        "The file to send: a path ending in .csv, .jsonl (or .ndjson), .json or .parquet, or - for standard input (with --file-format)",
      schema: { type: "string" },
    });
    inputs.push({
      name: "fileFormat",
      flag: "file-format",
      location: "file",
      kind: "string",
      required: false,
      nullable: false,
      acceptsString: true,
      description:
        "The file's format when its name does not say it, as for standard input: csv, jsonl or json",
      enum: ["csv", "jsonl", "json", "parquet"],
      schema: { type: "string", enum: ["csv", "jsonl", "json", "parquet"] },
    });
  }
  avoidFlagClashes(inputs);

  const errors = Object.entries(op.responses ?? {})
    .filter(([code]) => !code.startsWith("2"))
    .map(([code, response]) => ({ status: Number(code), codes: errorCodes(doc, response) }));

  const security = (op.security ?? doc.security ?? []).flatMap((requirement) => Object.keys(requirement));
  return {
    resource: op.tags?.[0] ?? "default",
    name: op["x-svc-command"] ?? kebab(op.operationId),
    operationId: op.operationId,
    method: method.toUpperCase() as ApiCommand["method"],
    path,
    summary: op.summary ?? op.operationId,
    description: op.description ?? "",
    paginated: op["x-svc-paginated"] === true,
    security,
    inputs,
    body,
    ...(upload ? { upload } : {}),
    output: {
      status: Number(status),
      schema: success?.content?.["application/json"]?.schema ?? null,
      ...(file ? { file } : {}),
    },
    errors,
  };
}

function errorCodes(doc: OpenApiDocument, raw: OpenApiResponse): string[] {
  const response = raw.$ref ? doc.components?.responses?.[raw.$ref.split("/").pop() ?? ""] : raw;
  const schema = response?.content?.["application/json"]?.schema;
  for (const part of schema?.allOf ?? []) {
    const codes = part.properties?.code?.enum;
    if (Array.isArray(codes)) return codes.map(String);
  }
  return [];
}

function makeInput(
  name: string,
  location: Location,
  raw: JsonSchema,
  required: boolean,
  description: string | undefined,
  components: Components,
): Input {
  const schema = resolveSchema(raw, components);
  const types = typesOf(schema, components);
  const nullable = types.has("null");
  types.delete("null");
  const only = types.size === 1 ? [...types][0] : undefined;
  const kind: ValueKind =
    only === "string" || only === "integer" || only === "number" || only === "boolean" ? only : "json";
  const input: Input = {
    name,
    flag: kebab(name),
    location,
    kind,
    required,
    nullable,
    acceptsString: kind === "json" && (types.has("string") || types.size === 0),
    schema: raw,
  };
  const text = description ?? schema.description;
  if (text) input.description = text;
  if (schema.default !== undefined) input.default = schema.default;
  if (Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === "string")) {
    input.enum = schema.enum as string[];
  }
  return input;
}

/** The JSON types a schema allows; empty when it allows anything. */
function typesOf(schema: JsonSchema, components: Components, depth = 0): Set<string> {
  const resolved = resolveSchema(schema, components);
  if (resolved.type !== undefined) {
    return new Set(Array.isArray(resolved.type) ? resolved.type : [resolved.type]);
  }
  if (resolved.enum) return new Set(resolved.enum.map((value) => (value === null ? "null" : typeof value)));
  const alternatives = resolved.anyOf ?? resolved.oneOf;
  if (alternatives && depth < 8) {
    const all = new Set<string>();
    for (const part of alternatives) {
      const types = typesOf(part, components, depth + 1);
      if (types.size === 0) return types;
      for (const type of types) all.add(type);
    }
    return all;
  }
  if (resolved.properties) return new Set(["object"]);
  return new Set();
}

const RESERVED_FLAGS = new Set([
  ...globalFlags.map((flag) => flag.flag),
  "json",
  "help",
  "version",
  "with-token",
  "dir",
]);

/** Body fields whose flag would collide with a parameter or a CLI flag become `--body-<name>`. */
function avoidFlagClashes(inputs: Input[]): void {
  const taken = new Set(inputs.filter((input) => input.location !== "body").map((input) => input.flag));
  for (const input of inputs) {
    if (input.location === "body" && (taken.has(input.flag) || RESERVED_FLAGS.has(input.flag))) {
      input.flag = `body-${input.flag}`;
    }
  }
  for (const input of inputs) {
    if (input.location !== "body" && RESERVED_FLAGS.has(input.flag) && input.flag !== "version") {
      input.flag = `${input.location}-${input.flag}`;
    }
  }
}

/** `expectedOutput` → `expected-output`; `If-Match` → `if-match`. */
export function kebab(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .toLowerCase();
}
