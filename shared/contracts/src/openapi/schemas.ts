import { z } from "zod";
import { canonicalJson } from "../canonical-json";
import { errorBodySchema } from "../errors";
import type { Json } from "../examples";
import type { Operation } from "../operation";
import { apiKeySchema, createdApiKeySchema, organizationSchema, projectSchema } from "../schemas/auth";
import { actorSchema, roleSchema } from "../schemas/common";
import { datasetVersionEventSchema } from "../schemas/dataset-events";
import {
  cellSchema,
  datasetColumnSchema,
  datasetRowSchema,
  datasetSchema,
  datasetVersionSchema,
} from "../schemas/datasets";
import { evaluatorSchema, experimentSchema, resultSchema, scoreValueSchema } from "../schemas/experiments";
import { traceFilterSchema } from "../schemas/filters";
import { memberSchema } from "../schemas/members";
import { modelPriceSchema } from "../schemas/model-prices";
import { otlpAnyValueSchema } from "../schemas/otlp";
import { newRowSchema, rowSelectionSchema } from "../schemas/row-edits";
import { browserSessionSchema } from "../schemas/sessions";
import { spanSchema, traceSchema } from "../schemas/trace-views";

/* The operation table's zod schemas as the JSON Schemas of the OpenAPI document, with shared components. */

export type { Json };
export type JsonObject = { [key: string]: Json };
type Io = "input" | "output";

export const COMPONENT_PREFIX = "#/components/schemas/";

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
  BrowserSession: browserSessionSchema,
  Dataset: datasetSchema,
  DatasetColumn: datasetColumnSchema,
  DatasetRow: datasetRowSchema,
  DatasetVersion: datasetVersionSchema,
  DatasetVersionEvent: datasetVersionEventSchema,
  NewRow: newRowSchema,
  RowSelection: rowSelectionSchema,
  OtlpAnyValue: otlpAnyValueSchema,
  Trace: traceSchema,
  Span: spanSchema,
  TraceFilter: traceFilterSchema,
  Experiment: experimentSchema,
  ExperimentResult: resultSchema,
  Evaluator: evaluatorSchema,
  ScoreValue: scoreValueSchema,
  ModelPrice: modelPriceSchema,
};

export interface ConvertedSchemas {
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
export function convertSchemas(ops: readonly Operation[]): ConvertedSchemas {
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
