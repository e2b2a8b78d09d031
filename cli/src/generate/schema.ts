import { exitCodes } from "../errors";
import type { ApiCommand, CommandTree, FlagSpec, Input, LocalCommand, Resource } from "../spec/command-tree";
import { selfContained } from "../spec/json-schema";
import { VERSION } from "../version";

/** Machine-readable help: `svc --schema`, `svc <resource> --schema`, `svc <resource> <command> --schema`. */
export function rootSchema(tree: CommandTree): Record<string, unknown> {
  return {
    name: "svc",
    version: VERSION,
    api: { title: tree.title, version: tree.apiVersion },
    usage: "svc <resource> <command> [flags]",
    globalFlags: tree.globalFlags.map(flagSchema),
    resources: tree.resources.map((resource) => ({
      name: resource.name,
      description: resource.description,
      commands: resource.commands.map((command) => ({ name: command.name, summary: command.summary })),
    })),
    commands: tree.local.flatMap((group) =>
      group.commands.map((command) => localCommandSchema(group.group, command)),
    ),
    environment: environment(tree),
    exitCodes: exitCodeTable,
    errorShape: errorShape,
  };
}

export function resourceSchema(tree: CommandTree, resource: Resource): Record<string, unknown> {
  return {
    name: resource.name,
    description: resource.description,
    commands: resource.commands.map((command) => commandSchema(tree, command)),
  };
}

export function commandSchema(tree: CommandTree, command: ApiCommand): Record<string, unknown> {
  const out: Record<string, unknown> = {
    command: `svc ${command.resource} ${command.name}`,
    resource: command.resource,
    name: command.name,
    operationId: command.operationId,
    summary: command.summary,
    description: command.description,
    method: command.method,
    path: command.path,
    paginated: command.paginated,
    security: command.security,
    inputs: command.inputs.map((input) => inputSchema(tree, input)),
    body: command.body
      ? {
          flag: "--json",
          required: command.body.required,
          schema: selfContained(command.body.schema, tree.components),
        }
      : null,
    output: {
      status: command.output.status,
      schema: command.output.schema ? selfContained(command.output.schema, tree.components) : null,
    },
    errors: command.errors,
    example: exampleInvocation(command),
  };
  return out;
}

function inputSchema(tree: CommandTree, input: Input): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: input.name,
    flag: `--${input.flag}`,
    location: input.location,
    type: input.kind,
    required: input.required,
  };
  if (input.default !== undefined) out.default = input.default;
  if (input.enum) out.enum = input.enum;
  if (input.nullable) out.nullable = true;
  if (input.description) out.description = input.description;
  if (input.location === "path" && input.name === "projectSlug") out.env = "SVC_PROJECT_SLUG";
  out.schema = selfContained(input.schema, tree.components);
  return out;
}

function flagSchema(flag: FlagSpec): Record<string, unknown> {
  const out: Record<string, unknown> = { flag: `--${flag.flag}` };
  if (flag.short) out.short = `-${flag.short}`;
  out.type = flag.value ? "string" : "boolean";
  if (flag.values) out.enum = flag.values;
  out.description = flag.description;
  return out;
}

function localCommandSchema(group: string, command: LocalCommand): Record<string, unknown> {
  const out: Record<string, unknown> = {
    command: ["svc", group, command.name].filter(Boolean).join(" "),
    summary: command.summary,
    description: command.description,
    flags: command.flags.map(flagSchema),
  };
  if (command.argument) out.argument = command.argument;
  return out;
}

function environment(tree: CommandTree): Record<string, string> {
  const out: Record<string, string> = {};
  for (const scheme of tree.schemes) out[scheme.env] = `Credential for ${scheme.name}`;
  Object.assign(out, {
    SVC_OUTPUT: "Default output format",
    SVC_BASE_URL: "Base address of the API (default http://127.0.0.1:8080)",
    SVC_PROJECT_SLUG: "Default for --project-slug",
    SVC_TIMEOUT_SECS: "Total request timeout in seconds, retries included (default 60)",
    SVC_PROXY: "HTTP or HTTPS proxy for every request (overrides HTTPS_PROXY/HTTP_PROXY)",
    SVC_CA_BUNDLE: "PEM file of extra trusted certificate authorities",
    SVC_INSECURE: "1 skips TLS verification (with a warning every time)",
    HTTPS_PROXY: "Proxy for https:// addresses (also https_proxy)",
    HTTP_PROXY: "Proxy for http:// addresses (also http_proxy)",
    NO_PROXY: "Hosts reached directly (also no_proxy)",
    SSL_CERT_FILE: "PEM file of trusted certificate authorities, replacing the built-in ones",
    NO_COLOR: "Disables colour",
  });
  return out;
}

export const exitCodeTable: Record<string, string> = {
  [exitCodes.ok]: "success",
  [exitCodes.api]: "the API answered with an error (4xx/5xx other than authentication)",
  [exitCodes.auth]: "authentication: no credential, 401 or 403",
  [exitCodes.usage]:
    "local validation or usage: unknown command or flag, bad JSON, bad query, invalid dry run",
  [exitCodes.network]: "the API could not be reached: connection, proxy, TLS or timeout",
  [exitCodes.bug]: "a bug in the CLI",
  [exitCodes.regression]:
    "svc experiments compare --fail-on-regression found a regression (the regressions are on standard output)",
};

export const errorShape = {
  description:
    "On failure standard output stays empty; standard error gets one line, or this JSON object when the format is json/jsonl or standard error is not a terminal",
  example: {
    error: "Dataset not found",
    code: "not_found",
    status: 404,
    requestId: "req_0123456789abcdef",
    hint: "check the names with `svc datasets list`",
  },
};

/** An invocation with a made-up value for every required input, and the body's first example. */
export function exampleInvocation(command: ApiCommand): string {
  const parts = ["svc", command.resource, command.name];
  const example = command.body?.examples[0];
  const exampleFields =
    example && typeof example === "object" && !Array.isArray(example)
      ? (example as Record<string, unknown>)
      : {};
  for (const input of command.inputs) {
    if (input.location === "body") {
      if (input.name in exampleFields)
        parts.push(`--${input.flag}`, shellQuote(flagText(exampleFields[input.name])));
      else if (input.required) parts.push(`--${input.flag}`, shellQuote(placeholder(input)));
    } else if (input.required) {
      parts.push(`--${input.flag}`, shellQuote(placeholder(input)));
    }
  }
  return parts.join(" ");
}

function placeholder(input: Input): string {
  if (input.enum?.[0]) return input.enum[0];
  const known: Record<string, string> = {
    projectSlug: "my-project",
    datasetSlug: "my-dataset",
    rowId: "row-1",
    identifier: "expectedOutput",
    name: "Example",
  };
  if (known[input.name]) return known[input.name] as string;
  if (input.kind === "integer" || input.kind === "number") return "1";
  if (input.kind === "boolean") return "true";
  if (input.kind === "json") return input.acceptsString ? "text" : "{}";
  return `my-${input.flag}`;
}

const flagText = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
