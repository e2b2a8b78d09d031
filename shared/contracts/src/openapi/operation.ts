import { z } from "zod";
import { headerName } from "../header-name";
import { takesMinVersion } from "../min-version";
import type { Operation } from "../operation";
import { madeExample, responses } from "./responses";
import type { ConvertedSchemas, Json, JsonObject } from "./schemas";

/* One operation of the table as an OpenAPI operation object: parameters, body, responses, security. */

export function describeOperation(
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
  // Offered where a read may run on a read standby: the dataset queries of the reader.
  if (takesMinVersion(op)) parameters.push({ $ref: "#/components/parameters/MinVersion" });

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
  operation.security = securityOf(op);
  operation["x-svc-command"] = op.command;
  operation["x-svc-paginated"] = op.paginated;
  // The body sent or received is a file, not JSON: generated JSON clients leave these to file helpers.
  if (op.upload || op.file) operation["x-svc-file"] = op.upload ? "upload" : "download";
  // The answer is a stream of Server-Sent Events, each event's data this schema: clients follow it with a helper.
  if (op.events)
    operation["x-svc-events"] = { event: op.events.name, data: schemas.part(op, "response") ?? {} };
  // The web application's own: clients other than the browser's leave it out (see `browserSession`).
  if (op.browserSession) operation["x-svc-browser-session"] = op.browserSession.credential;
  else operation["x-svc-access"] = op.access;
  return operation;
}

function securityOf(op: Operation): Json[] {
  if (op.browserSession) return op.browserSession.credential === "cookie" ? [{ SessionCookie: [] }] : [];
  return op.access === "operator" ? [{ OperatorToken: [] }] : [{ ApiKeyAuth: [] }];
}

function describeAccess(op: Operation): string {
  const who =
    op.browserSession?.credential === "none"
      ? "The web application's: needs no credential."
      : op.browserSession
        ? "The web application's: requires its session cookie."
        : op.access === "operator"
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
