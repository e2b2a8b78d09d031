import { z } from "zod";
import packageJson from "../package.json" with { type: "json" };
import { canonicalJson } from "./canonical-json";
import { type ErrorCode, errorBodySchema, errorStatus } from "./errors";
import { exampleFor } from "./examples";
import { headerName } from "./header-name";
import type { Operation } from "./operation";
import { operationList } from "./operations/index";
import { apiKeySchema, createdApiKeySchema, organizationSchema, projectSchema } from "./schemas/auth";
import { actorSchema, roleSchema } from "./schemas/common";
import {
  cellSchema,
  datasetColumnSchema,
  datasetRowSchema,
  datasetSchema,
  datasetVersionSchema,
  newRowSchema,
  rowSelectionSchema,
} from "./schemas/datasets";
import { traceFilterSchema } from "./schemas/filters";
import { memberSchema } from "./schemas/members";
import { otlpAnyValueSchema } from "./schemas/otlp";
import { spanSchema, traceSchema } from "./schemas/trace-views";
import { MAX_INPUT_DEPTH } from "./storable";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
type Io = "input" | "output";

/**
 * Schemas that appear in several operations become named components. Anything not listed here is
 * inlined, so an operation added later is documented without touching this file.
 */
const namedSchemas: Record<string, z.ZodType> = {
  Error: errorBodySchema,
  Cell: cellSchema,
  Role: roleSchema,
  Actor: actorSchema,
  Organization: organizationSchema,
  ApiKey: apiKeySchema,
  CreatedApiKey: createdApiKeySchema,
  Project: projectSchema,
  Member: memberSchema,
  Dataset: datasetSchema,
  DatasetColumn: datasetColumnSchema,
  DatasetRow: datasetRowSchema,
  DatasetVersion: datasetVersionSchema,
  NewRow: newRowSchema,
  RowSelection: rowSelectionSchema,
  OtlpAnyValue: otlpAnyValueSchema,
  Trace: traceSchema,
  Span: spanSchema,
  TraceFilter: traceFilterSchema,
};

const tagDescriptions: Record<string, string> = {
  account: "The caller's organisation and role",
  organizations: "Organisations (operators only)",
  "api-keys": "API keys of the organisation",
  members: "Members of the organisation",
  projects: "Projects: the containers of datasets and traces",
  datasets: "Datasets, their rows, columns and versions",
  traces: "Traces ingested from OpenTelemetry exporters",
};

const errorMessages: Record<ErrorCode, string> = {
  validation_failed: "Request is invalid: name: must not be empty",
  unknown_column: 'Unknown or removed column "k3v0q2m9w8x7y6z5a4b3c2d1"; list the dataset\'s columns',
  unauthenticated: "Missing or invalid API key; send Authorization: Bearer <API_KEY>",
  forbidden: "This API key's role may not do this",
  not_found: "Dataset not found",
  conflict: "A dataset with this name already exists",
  idempotency_key_reused: "This Idempotency-Key was used with a different body",
  version_mismatch: "The row changed since version 3; read it again and retry",
  payload_too_large: "The body is larger than the limit",
  unsupported_media_type: "Send the body as application/json",
  too_many_traces: "At most 1000 traces can be imported at once",
  rate_limited:
    "Too many requests for this credential (at most 100 per second, bursts of 200); retry after 1 s",
  internal_error: "Something went wrong on our side; report the request id",
  service_unavailable: "A service behind the gateway is not answering; retry shortly",
  upstream_timeout: "A service behind the gateway did not answer in time; retry",
};

/** Details worth showing in an error's example. */
const errorDetails: Partial<Record<ErrorCode, JsonObject>> = {
  rate_limited: { scope: "key", retryAfterSeconds: 1, limit: { perSecond: 100, burst: 200 } },
};

/** A request's cursor only makes sense as a previous answer's `nextCursor`: examples leave it out. */
const OMITTED_FROM_REQUEST_EXAMPLES = new Set(["cursor"]);

const statusDescriptions: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  412: "Precondition Failed",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

const COMPONENT_PREFIX = "#/components/schemas/";

/** The OpenAPI 3.1 description of the public API, produced from the operation table alone. */
export function buildOpenApiDocument(): JsonObject {
  const schemas = convertSchemas(operationList);
  const paths: Record<string, JsonObject> = {};
  const errorResponses = new Map<string, JsonObject>();
  for (const op of inDocumentOrder(operationList)) {
    const item = paths[op.path] ?? {};
    item[op.method.toLowerCase()] = describeOperation(op, schemas, errorResponses);
    paths[op.path] = item;
  }
  const tags = [...new Set(operationList.map((op) => op.tag))]
    .sort()
    .map((name) => (tagDescriptions[name] ? { name, description: tagDescriptions[name] } : { name }));
  return {
    openapi: "3.1.0",
    info: {
      title: "svc API",
      version: packageJson.version,
      description: [
        "The public HTTP API of svc, the dataset-editing platform. Bodies are JSON; timestamps are ISO-8601 in UTC.",
        "Lists are cursor-paginated (`cursor`, `limit` 1-200, default 50) and answer `{items, nextCursor, hasMore}`.",
        "Every error has the shape `{error, code, requestId, details?}`; `code` is stable for programs.",
        `Input that cannot be stored is 400 validation_failed whatever the operation: text holding the character U+0000 or a UTF-16 surrogate without its pair, and JSON nested more than ${MAX_INPUT_DEPTH} levels deep.`,
        "Every POST, PATCH and DELETE that changes something accepts an `Idempotency-Key`: a retry with the same key and body returns the first response and changes nothing; the same key with another body is 409 idempotency_key_reused. (`POST …/traces/list` only reads: its filters are in the body.)",
        "Requests are rate-limited per API key (or OAuth grant) and per organisation, with token buckets that every gateway shares: past a limit the answer is `429 rate_limited` with `Retry-After` in seconds, and `details` name the limit.",
        'A 401 carries `WWW-Authenticate: Bearer resource_metadata="…"` (RFC 6750, RFC 9728), with `error="invalid_token"` when the credential sent was refused.',
      ].join("\n\n"),
    },
    servers: [{ url: "http://127.0.0.1:8080", description: "The embedded server started by `npm start`" }],
    tags,
    security: [{ ApiKeyAuth: [] }, { SessionCookie: [] }],
    paths,
    components: {
      schemas: schemas.components,
      responses: Object.fromEntries([...errorResponses].sort(([a], [b]) => a.localeCompare(b))),
      parameters: {
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description:
            "Makes a retry safe: the same key with the same body returns the first response and changes nothing; the same key with a different body is 409 idempotency_key_reused. Remembered for at least 24 hours.",
          schema: { type: "string", minLength: 1, maxLength: 255 },
        },
        RequestId: {
          name: "X-Request-Id",
          in: "header",
          required: false,
          description: "The caller's own request id, echoed in the response and in error bodies",
          schema: { type: "string", minLength: 1, maxLength: 200 },
        },
      },
      headers: {
        RequestId: {
          description: "The request's id (the caller's X-Request-Id, or one the gateway made)",
          schema: { type: "string" },
        },
        RetryAfter: {
          description: "Seconds to wait before retrying",
          schema: { type: "integer", minimum: 0 },
        },
        WwwAuthenticate: {
          description:
            'The bearer challenge: `Bearer resource_metadata="<base>/.well-known/oauth-protected-resource"`, with `error="invalid_token"` when the credential sent was refused',
          schema: { type: "string" },
        },
      },
      securitySchemes: {
        ApiKeyAuth: {
          type: "http",
          scheme: "bearer",
          description: "An API key of the organisation: `Authorization: Bearer svc_…`",
        },
        SessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: "svc_session",
          description:
            "The web application's session (`__Host-svc_session` behind HTTPS); writes also need the `X-CSRF-Token` header and a same-site `Origin`",
        },
        OperatorToken: {
          type: "http",
          scheme: "bearer",
          description:
            "The platform operator's token (`SVC_ADMIN_TOKEN`); the operator routes do not exist without it",
        },
      },
    },
  };
}

const methodOrder = ["GET", "POST", "PATCH", "DELETE"];

/**
 * Paths sorted, methods in a fixed order: the document must not depend on the order in which a module
 * loader lists the table's exports.
 */
function inDocumentOrder(ops: readonly Operation[]): Operation[] {
  return [...ops].sort((a, b) =>
    a.path === b.path
      ? methodOrder.indexOf(a.method) - methodOrder.indexOf(b.method)
      : a.path < b.path
        ? -1
        : 1,
  );
}

interface ConvertedSchemas {
  components: Record<string, Json>;
  /** The JSON Schema of one part of one operation, with `$ref`s into the components. */
  part(op: Operation, part: Part): JsonObject | undefined;
  /** Follows a `$ref` to a component. */
  resolve(schema: JsonObject | undefined): JsonObject | undefined;
}
type Part = "params" | "query" | "body" | "headers" | "response";
const partIo: Record<Part, Io> = {
  params: "input",
  query: "input",
  body: "input",
  headers: "input",
  response: "output",
};

/**
 * Converts every schema of every operation in two passes (request side as input, responses as output),
 * each with the named schemas registered so that they come out as `$ref`s. A named schema whose input
 * form differs from its output form gets a second component, `<Name>Input`.
 */
function convertSchemas(ops: readonly Operation[]): ConvertedSchemas {
  const converted = { input: convertAll(ops, "input"), output: convertAll(ops, "output") };
  const inputNames = new Map<string, string>();
  for (const name of Object.keys(namedSchemas)) {
    const same = canonicalJson(converted.input[name]) === canonicalJson(converted.output[name]);
    inputNames.set(name, same ? name : `${name}Input`);
  }
  const renameInput = (value: Json): Json => mapRefs(value, (name) => inputNames.get(name) ?? name) as Json;

  const all: Record<string, Json> = {};
  for (const name of Object.keys(namedSchemas)) {
    all[name] = converted.output[name] as Json;
    const inputName = inputNames.get(name) ?? name;
    if (inputName !== name) all[inputName] = renameInput(converted.input[name] as Json);
  }

  const parts = new Map<string, JsonObject>();
  for (const op of ops) {
    for (const part of Object.keys(partIo) as Part[]) {
      const io = partIo[part];
      const schema = converted[io][partId(op, part)];
      if (schema === undefined) continue;
      parts.set(partId(op, part), (io === "input" ? renameInput(schema) : schema) as JsonObject);
    }
  }

  const used = new Set<string>(["Error"]);
  const visit = (value: Json): void => {
    mapRefs(value, (name) => {
      if (!used.has(name)) {
        used.add(name);
        visit(all[name] as Json);
      }
      return name;
    });
  };
  for (const schema of parts.values()) visit(schema);
  visit(all.Error as Json);

  const components: Record<string, Json> = {};
  for (const name of Object.keys(all).sort()) if (used.has(name)) components[name] = all[name] as Json;
  const resolve = (schema: JsonObject | undefined): JsonObject | undefined => {
    const ref = schema?.$ref;
    if (typeof ref !== "string" || !ref.startsWith(COMPONENT_PREFIX)) return schema;
    return resolve(all[ref.slice(COMPONENT_PREFIX.length)] as JsonObject | undefined);
  };
  return { components, part: (op, part) => parts.get(partId(op, part)), resolve };
}

const partId = (op: Operation, part: Part): string => `op.${op.operationId}.${part}`;

function convertAll(ops: readonly Operation[], io: Io): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const [name, schema] of Object.entries(namedSchemas)) registry.add(schema, { id: name });
  const aliases = new Map<string, string>();
  for (const op of ops) {
    for (const part of Object.keys(partIo) as Part[]) {
      if (partIo[part] !== io) continue;
      const schema = op[part];
      if (!schema) continue;
      const existing = registry.get(schema)?.id;
      if (existing) aliases.set(partId(op, part), existing);
      else registry.add(schema, { id: partId(op, part) });
    }
  }
  const result = z.toJSONSchema(registry, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
    uri: (id) => `${COMPONENT_PREFIX}${id}`,
  }) as { schemas: Record<string, JsonObject> };
  const out: Record<string, JsonObject> = {};
  for (const [id, schema] of Object.entries(result.schemas)) out[id] = tidy(schema) as JsonObject;
  for (const [id, target] of aliases) {
    out[id] = target in namedSchemas ? { $ref: `${COMPONENT_PREFIX}${target}` } : (out[target] as JsonObject);
  }
  return out;
}

/** Drops what JSON Schema tools add but OpenAPI readers don't need, and zod's safe-integer bounds. */
function tidy(value: Json): Json {
  if (Array.isArray(value)) return value.map(tidy);
  if (value === null || typeof value !== "object") return value;
  const out: JsonObject = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === "$schema" || key === "$id") continue;
    if (key === "minimum" && inner === -Number.MAX_SAFE_INTEGER) continue;
    if (key === "maximum" && inner === Number.MAX_SAFE_INTEGER) continue;
    out[key] = tidy(inner);
  }
  return out;
}

/** Calls `rename` with the component name of every `$ref` inside `value`, and returns a copy with the new names. */
function mapRefs(value: Json, rename: (name: string) => string): Json {
  if (Array.isArray(value)) return value.map((inner) => mapRefs(inner, rename));
  if (value === null || typeof value !== "object") return value;
  const out: JsonObject = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === "$ref" && typeof inner === "string" && inner.startsWith(COMPONENT_PREFIX)) {
      out[key] = COMPONENT_PREFIX + rename(inner.slice(COMPONENT_PREFIX.length));
    } else {
      out[key] = mapRefs(inner, rename);
    }
  }
  return out;
}

function describeOperation(
  op: Operation,
  schemas: ConvertedSchemas,
  errorResponses: Map<string, JsonObject>,
): JsonObject {
  const parameters: Json[] = [
    ...objectParameters(op, "params", "path", schemas),
    ...objectParameters(op, "query", "query", schemas),
    ...objectParameters(op, "headers", "header", schemas),
    { $ref: "#/components/parameters/RequestId" },
  ];
  // Offered where a retry is kept apart from a new request: the operations that can answer 409 for it.
  if (op.errors.includes("idempotency_key_reused")) {
    parameters.push({ $ref: "#/components/parameters/IdempotencyKey" });
  }

  const operation: JsonObject = {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: describeAccess(op),
    parameters,
  };
  const body = schemas.part(op, "body");
  if (op.body && body) {
    const examples =
      (op.bodyExamples as JsonObject | undefined) ?? madeExample("A request", body, schemas, true);
    const media: JsonObject = { schema: body, ...(examples ? { examples } : {}) };
    operation.requestBody = { required: true, content: { "application/json": media } };
  }
  if (op.upload) {
    operation.requestBody = {
      required: true,
      description: "The file itself, streamed",
      content: Object.fromEntries(
        Object.values(op.upload.mediaTypes).map((type) => [
          type,
          { schema: { type: "string", format: "binary" } },
        ]),
      ),
    };
  }
  operation.responses = responses(op, schemas, errorResponses);
  operation.security = op.access === "operator" ? [{ OperatorToken: [] }] : [{ ApiKeyAuth: [] }];
  operation["x-svc-command"] = op.command;
  operation["x-svc-paginated"] = op.paginated;
  // The body sent or received is a file, not JSON: generated JSON clients leave these to file helpers.
  if (op.upload || op.file) operation["x-svc-file"] = op.upload ? "upload" : "download";
  operation["x-svc-access"] = op.access;
  return operation;
}

function describeAccess(op: Operation): string {
  const who =
    op.access === "operator"
      ? "Requires the operator token."
      : `Requires an API key with role \`${op.access}\` or higher.`;
  return op.description ? `${op.description}\n\n${who}` : `${op.summary}.\n\n${who}`;
}

/** One parameter per property of an operation's params, query or headers object schema. */
function objectParameters(
  op: Operation,
  part: "params" | "query" | "headers",
  location: "path" | "query" | "header",
  schemas: ConvertedSchemas,
): JsonObject[] {
  const schema = schemas.resolve(schemas.part(op, part));
  const properties = schema?.properties;
  if (!properties || typeof properties !== "object" || Array.isArray(properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const defaults = zodDefaults(op[part]);
  return Object.entries(properties).map(([key, value]) => {
    const { description, ...propertySchema } = (value ?? {}) as JsonObject;
    if (propertySchema.default === undefined && defaults[key] !== undefined) {
      propertySchema.default = defaultFor(propertySchema, defaults[key]);
    }
    const name = location === "header" ? headerName(key) : key;
    const parameter: JsonObject = {
      name,
      in: location,
      required: location === "path" || required.has(key),
    };
    const text = typeof description === "string" ? description : op.headerDescriptions?.[name];
    if (text) parameter.description = text;
    parameter.schema = propertySchema;
    return parameter;
  });
}

/**
 * Defaults that zod leaves out of the input schema because they are typed as the output (for example
 * a query boolean parsed from "true"/"false" that defaults to `false`).
 */
function zodDefaults(schema: z.ZodType | null): Record<string, Json> {
  if (!(schema instanceof z.ZodObject)) return {};
  const out: Record<string, Json> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    if (field instanceof z.ZodDefault) out[key] = field.def.defaultValue as Json;
  }
  return out;
}

function defaultFor(schema: JsonObject, value: Json): Json {
  const allowed = schema.enum;
  if (Array.isArray(allowed) && !allowed.includes(value) && allowed.includes(String(value))) {
    return String(value);
  }
  return value;
}

function responses(
  op: Operation,
  schemas: ConvertedSchemas,
  errorResponses: Map<string, JsonObject>,
): JsonObject {
  const out: JsonObject = {};
  const success: JsonObject = {
    description: statusDescriptions[op.successStatus] ?? "Success",
    headers: { "X-Request-Id": { $ref: "#/components/headers/RequestId" } },
  };
  const response = schemas.part(op, "response");
  if (op.successStatus !== 204 && response) {
    const examples = madeExample("A response", response, schemas, false);
    success.content = { "application/json": { schema: response, ...(examples ? { examples } : {}) } };
  }
  if (op.file) {
    success.content = Object.fromEntries(
      Object.values(op.file.mediaTypes).map((type) => [
        type.split(";")[0] as string,
        { schema: { type: "string" } },
      ]),
    );
    for (const [name, header] of Object.entries(op.file.headers ?? {})) {
      (success.headers as JsonObject)[name] = {
        description: header.description,
        schema: { type: header.type },
      };
    }
  }
  out[String(op.successStatus)] = success;

  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(op.errors)) {
    const status = errorStatus[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const name = codes.map(pascalCase).join("Or");
    if (!errorResponses.has(name)) errorResponses.set(name, errorResponse(status, codes));
    out[String(status)] = { $ref: `#/components/responses/${name}` };
  }
  return out;
}

/** One response for the error codes an operation can get with one status, each with an example. */
function errorResponse(status: number, codes: readonly ErrorCode[]): JsonObject {
  const headers: JsonObject = { "X-Request-Id": { $ref: "#/components/headers/RequestId" } };
  if (status === 429) headers["Retry-After"] = { $ref: "#/components/headers/RetryAfter" };
  if (status === 401) headers["WWW-Authenticate"] = { $ref: "#/components/headers/WwwAuthenticate" };
  const examples: JsonObject = {};
  for (const code of codes) {
    const details = errorDetails[code];
    examples[code] = {
      summary: code,
      value: {
        error: errorMessages[code],
        code,
        requestId: "req_0123456789abcdef",
        ...(details ? { details } : {}),
      },
    };
  }
  return {
    description: `${statusDescriptions[status] ?? "Error"}: ${codes.map((code) => `\`${code}\``).join(", ")}`,
    headers,
    content: {
      "application/json": {
        schema: {
          allOf: [
            { $ref: `${COMPONENT_PREFIX}Error` },
            { type: "object", properties: { code: { type: "string", enum: [...codes] } } },
          ],
        },
        examples,
      },
    },
  };
}

/** An `examples` map with one example made from the schema, or undefined when none can be made. */
function madeExample(
  what: string,
  schema: JsonObject,
  schemas: ConvertedSchemas,
  request: boolean,
): JsonObject | undefined {
  const value = exampleFor(schema, {
    components: schemas.components,
    ...(request ? { omit: OMITTED_FROM_REQUEST_EXAMPLES } : {}),
  });
  return value === undefined ? undefined : { example: { summary: what, value } };
}

/** `idempotency_key_reused` → `IdempotencyKeyReused`. */
const pascalCase = (code: string): string =>
  code
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
