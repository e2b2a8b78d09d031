import { type ErrorCode, errorStatus } from "../errors";
import { exampleFor } from "../examples";
import type { Operation } from "../operation";
import { COMPONENT_PREFIX, type ConvertedSchemas, type JsonObject } from "./schemas";

/* An operation's responses: its success with an example, and its errors grouped by HTTP status. */

const errorMessages: Record<ErrorCode, string> = {
  validation_failed: "Request is invalid: name: must not be empty",
  unknown_column: 'Unknown or removed column "k3v0q2m9w8x7y6z5a4b3c2d1"; list the dataset\'s columns',
  unknown_row: 'Row "q9" is not in the experiment\'s dataset version 3',
  too_many_columns:
    "A dataset has at most 1000 custom columns, and this one has 1000; remove columns you no longer need",
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
  outcome_unknown:
    "The service stopped answering after it took this change, which may have been applied; read the data to see whether it was, or send it again with an Idempotency-Key",
};

/** Details worth showing in an error's example. */
const errorDetails: Partial<Record<ErrorCode, JsonObject>> = {
  too_many_columns: { limit: 1000 },
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

export function responses(
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
  if (op.events && response) {
    // One event per version: `id`, `event` and one `data:` line of JSON of this schema (OpenAPI 3.2's
    // `itemSchema`; 3.1 has none, so the extension names it).
    const made = exampleFor(response, { components: schemas.components });
    success.content = {
      "text/event-stream": {
        schema: {
          type: "string",
          description: `Server-Sent Events: \`event: ${op.events.name}\`, \`id\` the dataset version, \`data\` one line of JSON`,
        },
        "x-svc-event-data": response,
        ...(made === undefined
          ? {}
          : {
              examples: {
                example: {
                  summary: "One event",
                  value: `id: ${(made as { version?: number }).version ?? 1}\nevent: ${op.events.name}\ndata: ${JSON.stringify(made)}\n\n`,
                },
              },
            }),
      },
    };
    (success.headers as JsonObject)["Cache-Control"] = {
      description: "`no-cache`: the stream is live",
      schema: { type: "string", const: "no-cache" },
    };
  }
  if (op.oneTimeSecret) {
    (success.headers as JsonObject)["Cache-Control"] = {
      description: "`no-store`: the response holds a secret shown once, which no cache may keep",
      schema: { type: "string", const: "no-store" },
    };
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
export function madeExample(
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
