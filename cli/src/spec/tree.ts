import type { ApiCommand, CommandTree, Input } from "./command-tree";
import { avoidFlagClashes, kebab, makeInput } from "./inputs";
import { type Components, type JsonSchema, resolveSchema } from "./json-schema";
import { globalFlags, localGroups } from "./local-commands";

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
  "x-svc-events"?: { event: string };
  /** The web application's session (signing the browser in and out): no command of the CLI. */
  "x-svc-browser-session"?: "none" | "cookie";
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
      if (!op || op["x-svc-browser-session"] !== undefined) continue;
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
  // An upload's body is the file (--file), whatever its format: a JSON array is one of them, not a body.
  const upload = op["x-svc-file"] === "upload" ? Object.keys(op.requestBody?.content ?? {}) : undefined;
  const media = upload ? undefined : op.requestBody?.content?.["application/json"];
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
  const streamed = op["x-svc-events"] !== undefined;
  const file =
    !streamed && mediaTypes.length > 0 && !mediaTypes.includes("application/json") ? mediaTypes : undefined;
  if (file) {
    const format = inputs.findIndex((input) => input.location === "query" && input.name === "format");
    if (format >= 0) inputs.splice(format, 1);
    inputs.push(
      fileInput(
        "output",
        "output",
        false,
        "Write the file here instead of to standard output (- for standard output), whole or not at all: an export that fails leaves no file. A name ending in .csv, .jsonl or .parquet says the format",
        { type: "string", minLength: 1 },
      ),
    );
  }
  if (upload) {
    const formats = ["csv", "jsonl", "json", "parquet"];
    inputs.push(
      fileInput(
        "file",
        "file",
        true,
        "The file to send: a path ending in .csv, .jsonl (or .ndjson), .json or .parquet, or - for standard input (with --file-format)",
        { type: "string" },
      ),
      {
        ...fileInput(
          "fileFormat",
          "file-format",
          false,
          "The file's format when its name does not say it, as for standard input",
          { type: "string", enum: formats },
        ),
        enum: formats,
      },
    );
  }
  const extension = commandExtensions[op.operationId];
  if (extension) inputs.push(...extension.flags);
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
    ...(extension ? { positional: extension.positional } : {}),
    ...(streamed ? { events: true as const } : {}),
    output: {
      status: Number(status),
      schema: success?.content?.["application/json"]?.schema ?? null,
      ...(file ? { file } : {}),
    },
    errors,
  };
}

/**
 * What the CLI adds to an operation's command: arguments in place of its path flags, and flags of its
 * own. `svc experiments compare A B --fail-on-regression` is a CI step's whole gate (CLI.md).
 */
const commandExtensions: Record<string, { positional: string[]; flags: Input[] }> = {
  // `svc datasets watch PROJECT DATASET` follows the dataset's live changes (CLI.md).
  watchDataset: { positional: ["projectSlug", "datasetSlug"], flags: [] },
  compareExperiments: {
    positional: ["experimentId", "otherExperimentId"],
    flags: [
      localInput(
        "failOnRegression",
        "fail-on-regression",
        "boolean",
        "Exit 6 when b regressed from a: a shared score's mean dropped by more than --tolerance, or, without it, any row regressed; the regressions are printed",
        { type: "boolean" },
      ),
      localInput("score", "score", "string", "With --fail-on-regression: judge only this score", {
        type: "string",
        minLength: 1,
        maxLength: 64,
      }),
      localInput(
        "tolerance",
        "tolerance",
        "number",
        "With --fail-on-regression: the largest drop of a score's mean that still passes (for example 0.02)",
        { type: "number", minimum: 0 },
      ),
    ],
  },
};

function localInput(
  name: string,
  flag: string,
  kind: Input["kind"],
  description: string,
  schema: Input["schema"],
): Input {
  return {
    name,
    flag,
    location: "local",
    kind,
    required: false,
    nullable: false,
    acceptsString: false,
    description,
    schema,
  };
}

/** A flag of the command line that names a file on this machine (`location: "file"`), not part of the request. */
function fileInput(
  name: string,
  flag: string,
  required: boolean,
  description: string,
  schema: Input["schema"],
): Input {
  return {
    name,
    flag,
    location: "file",
    kind: "string",
    required,
    nullable: false,
    acceptsString: true,
    description,
    schema,
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
