import packageJson from "../package.json" with { type: "json" };
import { describeOperation } from "./openapi/operation";
import { convertSchemas, type JsonObject } from "./openapi/schemas";
import type { Operation } from "./operation";
import { operationList } from "./operations/index";
import { MAX_INPUT_DEPTH } from "./storable";

const tagDescriptions: Record<string, string> = {
  account: "The caller's organisation and role",
  organizations: "Organisations (operators only)",
  "api-keys": "API keys of the organisation",
  members: "Members of the organisation",
  projects: "Projects: the containers of datasets and traces",
  datasets: "Datasets, their rows, columns and versions",
  experiments: "Experiments: an agent run over a dataset version, its results, scores and comparisons",
  traces: "Traces ingested from OpenTelemetry exporters, and their metrics, sessions and users",
  "model-prices": "What each model's tokens cost, to price the spans that do not say",
  sessions: "The web application's session: signing the browser in and out (its own, not for programs)",
};

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
        `Input that cannot be stored is 400 validation_failed whatever the operation: text holding the character U+0000 or a UTF-16 surrogate without its pair, JSON nested more than ${MAX_INPUT_DEPTH} levels deep, and a number that would be stored as another (beyond a double's range, or with more significant digits than a double holds, such as 12345678901234567890: send it as a string). \`-0\` is stored as \`0\`.`,
        "Under overload a request is refused at once with `503 service_unavailable` and `Retry-After` (the gateway or the service is at capacity, or requests are waiting longer than its bound); a request whose deadline passes before a service can start it is `504 upstream_timeout` and changes nothing. A row of any size that was stored can be read back, whole, by every read.",
        "A `503 service_unavailable` or `504 upstream_timeout` answered to a write means nothing was written: retry it. When a service stops answering after it took a write, the gateway sends the write again, under the same Idempotency-Key (its own, if the request had none), so that it applies once; only when no service answers in time is the answer `503 outcome_unknown` (with `Retry-After`): the write may have been applied, so read first, or retry with an Idempotency-Key.",
        "Reads of a dataset may be served by a read standby a few milliseconds behind the primary: send `X-Svc-Min-Version` with the `version` your last write to the dataset answered, and the read sees that write (it waits for the standby, or reads the primary).",
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
        MinVersion: {
          name: "X-Svc-Min-Version",
          in: "header",
          required: false,
          description:
            "Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset.",
          schema: { type: "integer", minimum: 0 },
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
