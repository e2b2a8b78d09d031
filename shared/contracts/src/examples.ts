/**
 * Example values for the OpenAPI document, made from the JSON Schemas the operation table converts to:
 * an operation added to the table gets examples without anyone writing them. Values come from the
 * property's name where a realistic one is known (a row's `input`, a dataset's `name`), else from the
 * schema's own constraints (enum, format, pattern, bounds). The OpenAPI tests parse every example with
 * the operation's zod schemas, so an example that the API would refuse fails the build.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const COMPONENT_PREFIX = "#/components/schemas/";
const MAX_DEPTH = 24;

const TIME = "2025-05-01T12:00:00.000Z";
const LATER = "2025-05-01T12:00:02.500Z";
const COLUMN = "k3v0q2m9w8x7y6z5a4b3c2d1";

/** Strings by property name; used only when the schema accepts them. */
const strings: Record<string, string> = {
  id: "c9x2m4q7w1e8r5t3y6u0i2o4",
  organizationId: "o1r2g3a4n5i6z7a8t9i0o1n2",
  projectId: "p1r2o3j4e5c6t7i8d9a0b1c2",
  datasetId: "d1a2t3a4s5e6t7i8d9a0b1c2",
  versionId: "v1e2r3s4i5o6n7i8d9a0b1c2",
  identifier: COLUMN,
  name: "Golden answers",
  slug: "golden-answers",
  description: "Curated question-answer pairs",
  email: "ann@example.com",
  token: "svc_3fQk9ZbT1mXc7LwV2pRn8sYd",
  maskedToken: "svc_…8sYd",
  rowId: "q-001",
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  spanId: "00f067aa0ba902b7",
  parentSpanId: "53995c3f42cd8ad8",
  rootSpanName: "agent.run",
  sessionId: "session-42",
  userId: "user-7",
  key: "gen_ai.request.model",
  stringValue: "gpt-4o",
  field: "rootSpanName",
  message: "ok",
  errorMessage: "",
  schemaUrl: "https://opentelemetry.io/schemas/1.26.0",
  startTimeUnixNano: "1746100800000000000",
  endTimeUnixNano: "1746100802500000000",
  timeUnixNano: "1746100801000000000",
  intValue: "42",
  version: "1.0.0",
  durationNs: "2500000000",
  tag: "production",
  model: "gpt-4o",
  createdAt: TIME,
  startTime: TIME,
  time: TIME,
  lastUsedAt: LATER,
  endTime: LATER,
  updatedAt: LATER,
};

/** Nullable properties whose example is null: the last page of a list has no next cursor. */
const nulls = new Set(["nextCursor"]);

/** Any-JSON values (cells, metadata) by property name. */
const values: Record<string, Json> = {
  input: { question: "What is the capital of France?" },
  output: "Paris is the capital of France.",
  expectedOutput: { answer: "Paris" },
  metadata: { source: "support-ticket-1234" },
  value: "Paris",
  before: "Lyon",
  after: "Paris",
};

const numbers: Record<string, number> = {
  version: 3,
  limit: 50,
  spanCount: 4,
  errorCount: 0,
  durationNs: 2_500_000_000,
  tokensInput: 812,
  tokensOutput: 96,
  tokensTotal: 908,
  costTotalMicrocents: 1_270,
  rowsInserted: 2,
  rowsUpdated: 1,
  rowsDeleted: 0,
  deletedCount: 1,
  order: 0,
};

/** Whole objects where walking the schema would give something odd (a value of every OTLP kind at once). */
const components: Record<string, Json> = {
  OtlpAnyValue: { stringValue: "gpt-4o" },
  Cell: "Paris",
};

/** Strings tried, in order, against a `pattern` that no named value satisfied. */
const patternCandidates = [
  "q-001",
  "4bf92f3577b34da6a3ce929d0e0e4736",
  "00f067aa0ba902b7",
  "1746100800000000000",
  "42",
  TIME,
  "ann@example.com",
  "golden-answers",
];

/** One entry of a record (an object whose keys are data), by the record's property name. */
const records: Record<string, [string, Json]> = {
  custom: [COLUMN, "reviewed"],
  attributes: ["gen_ai.request.model", "gpt-4o"],
  resourceAttributes: ["service.name", "support-bot"],
};

export interface ExampleOptions {
  /** The document's `components.schemas`, to follow `$ref`s. */
  components: Record<string, Json>;
  /** Properties left out (a request's `cursor` only makes sense as a previous answer's). */
  omit?: ReadonlySet<string>;
}

/** An example value for a JSON Schema, or undefined when none can be made. */
export function exampleFor(schema: Json, options: ExampleOptions): Json | undefined {
  return sample(schema, undefined, { ...options, refs: [] }, 0);
}

interface Walk extends ExampleOptions {
  /** The components being expanded, to stop at a recursive one. */
  refs: string[];
}

function sample(schema: Json, name: string | undefined, walk: Walk, depth: number): Json | undefined {
  if (!isObject(schema) || depth > MAX_DEPTH) return undefined;
  if (typeof schema.$ref === "string") return sampleRef(schema.$ref, name, walk, depth);
  if ("const" in schema) return schema.const as Json;
  if (Array.isArray(schema.enum)) return sampleEnum(schema, schema.enum, name);
  const alternatives = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (Array.isArray(alternatives)) return sampleFirst(alternatives, name, walk, depth);
  if (Array.isArray(schema.type)) return sampleTypes(schema, schema.type, name, walk, depth);
  if (name !== undefined && name in values && isAnyJson(schema)) return values[name] as Json;
  switch (schema.type) {
    case "object":
      return sampleObject(schema, name, walk, depth);
    case "array":
      return sampleArray(schema, name, walk, depth);
    case "string":
      return sampleString(schema, name);
    case "integer":
    case "number":
      return sampleNumber(schema, name);
    case "boolean":
      return typeof schema.default === "boolean" ? schema.default : false;
    case "null":
      return null;
    default:
      return isAnyJson(schema) ? (values.value as Json) : undefined;
  }
}

function sampleRef(ref: string, name: string | undefined, walk: Walk, depth: number): Json | undefined {
  const component = ref.startsWith(COMPONENT_PREFIX) ? ref.slice(COMPONENT_PREFIX.length) : ref;
  const target = walk.components[component];
  // A cell named `input` shows an input, not the cell component's own example.
  if (name !== undefined && name in values && isObject(target) && isAnyJson(target))
    return values[name] as Json;
  const known = components[component.replace(/Input$/, "")];
  if (known !== undefined) return known;
  if (walk.refs.includes(component)) return undefined;
  return sample(target ?? null, name, { ...walk, refs: [...walk.refs, component] }, depth + 1);
}

/** `type: ["string", "null"]`: the first type that is not null, or null where an example shows none. */
function sampleTypes(schema: JsonObject, types: Json[], name: string | undefined, walk: Walk, depth: number) {
  if (types.includes("null") && name !== undefined && nulls.has(name)) return null;
  const type = types.find((t) => t !== "null") ?? "null";
  return sample({ ...schema, type }, name, walk, depth + 1);
}

function sampleEnum(schema: JsonObject, options: Json[], name: string | undefined): Json {
  const preferred = [name === undefined ? undefined : strings[name], schema.default];
  return preferred.find((value) => value !== undefined && options.includes(value)) ?? options[0] ?? null;
}

/** The first alternative that gives a value, a null one only when nothing else does. */
function sampleFirst(alternatives: Json[], name: string | undefined, walk: Walk, depth: number) {
  const ordered = [...alternatives].sort((a, b) => Number(isNullType(a)) - Number(isNullType(b)));
  for (const alternative of ordered) {
    const value = sample(alternative, name, walk, depth + 1);
    if (value !== undefined) return value;
  }
  return undefined;
}

function sampleObject(schema: JsonObject, name: string | undefined, walk: Walk, depth: number): Json {
  const out: JsonObject = {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [key, property] of Object.entries(properties)) {
    if (walk.omit?.has(key)) continue;
    const value = sample(property, key, walk, depth + 1);
    if (value !== undefined) out[key] = value;
  }
  if (Object.keys(properties).length === 0 && isObject(schema.additionalProperties)) {
    const [key, known] = records[name ?? ""] ?? ["key", undefined];
    const values = schema.additionalProperties;
    const value =
      known !== undefined && isAnyJson(values) ? known : sample(values, undefined, walk, depth + 1);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function sampleArray(schema: JsonObject, name: string | undefined, walk: Walk, depth: number) {
  const item = sample(schema.items ?? {}, singular(name), walk, depth + 1);
  if (item === undefined) return [];
  const count = Math.max(1, typeof schema.minItems === "number" ? schema.minItems : 1);
  return Array.from({ length: count }, () => item);
}

function sampleString(schema: JsonObject, name: string | undefined): string {
  const candidates = [
    name === undefined ? undefined : strings[name],
    typeof schema.default === "string" ? schema.default : undefined,
    schema.format === "date-time" ? TIME : undefined,
    schema.format === "date" ? TIME.slice(0, 10) : undefined,
    schema.format === "email" ? "ann@example.com" : undefined,
    ...(typeof schema.pattern === "string" ? patternCandidates : []),
    "Paris",
  ];
  for (const candidate of candidates)
    if (candidate !== undefined && fits(schema, candidate)) return candidate;
  const min = typeof schema.minLength === "number" ? schema.minLength : 1;
  return "x".repeat(Math.max(1, min));
}

function fits(schema: JsonObject, value: string): boolean {
  if (typeof schema.minLength === "number" && value.length < schema.minLength) return false;
  if (typeof schema.maxLength === "number" && value.length > schema.maxLength) return false;
  return typeof schema.pattern !== "string" || new RegExp(schema.pattern, "u").test(value);
}

function sampleNumber(schema: JsonObject, name: string | undefined): number {
  const min = typeof schema.minimum === "number" ? schema.minimum : Number.NEGATIVE_INFINITY;
  const max = typeof schema.maximum === "number" ? schema.maximum : Number.POSITIVE_INFINITY;
  const candidates = [
    name === undefined ? undefined : numbers[name],
    typeof schema.default === "number" ? schema.default : undefined,
    1,
  ];
  for (const candidate of candidates) {
    if (candidate !== undefined && candidate >= min && candidate <= max) return candidate;
  }
  return Number.isFinite(min) ? min : max;
}

/** `rows` → `row`, `spans` → `span`: an item of a list is named like the list. */
function singular(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (name === "rowIds") return "rowId";
  if (name === "ids") return "traceId";
  return name.endsWith("s") ? name.slice(0, -1) : name;
}

/** A schema that accepts any JSON value (a cell): no type and no structure. */
function isAnyJson(schema: JsonObject): boolean {
  return !("type" in schema) && !("properties" in schema) && !("items" in schema);
}

const isNullType = (schema: Json): boolean => isObject(schema) && schema.type === "null";

function isObject(value: Json | undefined): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
