import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "../platform";

/*
 * The operations as the OpenAPI document states them: the fuzz suite knows nothing else about the API,
 * so an operation added to the table is fuzzed without a line here.
 */

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: JsonSchema;
}

export interface FuzzOperation {
  operationId: string;
  method: string;
  /** `/v1/projects/{projectSlug}/…` */
  path: string;
  tag: string;
  /** Needs the operator token rather than an organisation's key. */
  operator: boolean;
  readOnly: boolean;
  parameters: Parameter[];
  /** The request body's media types, its JSON schema and first example, when it takes one. */
  body: { mediaTypes: string[]; schema: JsonSchema | undefined; example: unknown } | undefined;
  /** The error codes the document lists for a status, or undefined when it lists none. */
  documentedCodes: Map<number, string[]>;
}

export type Document = {
  paths: Record<string, Record<string, RawOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, Parameter>;
    responses: Record<string, RawResponse>;
  };
};
type RawResponse = { content?: { "application/json"?: { schema?: JsonSchema } } };
type RawOperation = {
  operationId: string;
  tags?: string[];
  security?: Record<string, unknown>[];
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: {
    content: Record<string, { schema?: JsonSchema; examples?: Record<string, { value: unknown }> }>;
  };
  responses: Record<string, RawResponse | { $ref: string }>;
};

export const committedDocument = (): Document =>
  JSON.parse(readFileSync(join(root, "shared/contracts/openapi.json"), "utf8")) as Document;

/** Follows `$ref`s to the components they name. */
export function resolverOf(document: Document): (schema: JsonSchema) => JsonSchema {
  const resolve = (schema: JsonSchema): JsonSchema =>
    schema.$ref
      ? resolve(document.components.schemas[schema.$ref.split("/").pop() as string] as JsonSchema)
      : schema;
  return resolve;
}

export function operationsOf(document: Document): FuzzOperation[] {
  const out: FuzzOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      const parameters = (raw.parameters ?? []).map((p) =>
        "$ref" in p ? (document.components.parameters[p.$ref.split("/").pop() as string] as Parameter) : p,
      );
      const content = raw.requestBody?.content;
      const json = content?.["application/json"];
      out.push({
        operationId: raw.operationId,
        method: method.toUpperCase(),
        path,
        tag: raw.tags?.[0] ?? "",
        operator: (raw.security ?? []).some((s) => "OperatorToken" in s),
        readOnly: method === "get",
        parameters,
        body: content && {
          mediaTypes: Object.keys(content),
          schema: json?.schema,
          example: json?.examples ? Object.values(json.examples)[0]?.value : undefined,
        },
        documentedCodes: documentedCodes(document, raw),
      });
    }
  }
  return out;
}

function documentedCodes(document: Document, raw: RawOperation): Map<number, string[]> {
  const codes = new Map<number, string[]>();
  for (const [status, response] of Object.entries(raw.responses)) {
    const resolved =
      "$ref" in response
        ? document.components.responses[(response.$ref as string).split("/").pop() as string]
        : response;
    const schema = resolved?.content?.["application/json"]?.schema;
    const code = schema?.allOf?.find((part) => part.properties?.code)?.properties?.code?.enum;
    if (code) codes.set(Number(status), code as string[]);
  }
  return codes;
}
