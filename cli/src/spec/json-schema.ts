/** The subset of JSON Schema (draft 2020-12) that the platform's OpenAPI document uses. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  /** A rule that holds only when `if` does; a subschema may be `false` (a property that must be absent). */
  if?: JsonSchema | boolean;
  then?: JsonSchema | boolean;
  else?: JsonSchema | boolean;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minLength?: number;
  maxLength?: number;
  minProperties?: number;
  maxProperties?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  default?: unknown;
  description?: string;
  $defs?: Record<string, JsonSchema>;
  [key: string]: unknown;
}

export type Components = Record<string, JsonSchema>;

const COMPONENT_PREFIX = "#/components/schemas/";

/** Follows `$ref`s to components until a schema with content is reached. */
export function resolveSchema(schema: JsonSchema, components: Components): JsonSchema {
  let current = schema;
  for (let depth = 0; current.$ref && depth < 32; depth++) {
    const target = components[current.$ref.slice(COMPONENT_PREFIX.length)];
    if (!target) return current;
    const { $ref: _ref, ...siblings } = current;
    current = { ...target, ...siblings };
  }
  return current;
}

/** A copy of `schema` that stands on its own: referenced components move into `$defs`. */
export function selfContained(schema: JsonSchema, components: Components): JsonSchema {
  const defs: Record<string, JsonSchema> = {};
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && typeof inner === "string" && inner.startsWith(COMPONENT_PREFIX)) {
        const name = inner.slice(COMPONENT_PREFIX.length);
        out.$ref = `#/$defs/${name}`;
        const target = components[name];
        if (target && !(name in defs)) {
          defs[name] = {};
          defs[name] = rewrite(target) as JsonSchema;
        }
      } else {
        out[key] = rewrite(inner);
      }
    }
    return out;
  };
  const root = rewrite(schema) as JsonSchema;
  if (Object.keys(defs).length === 0) return root;
  const sorted = Object.fromEntries(Object.entries(defs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { ...root, $defs: sorted };
}

export interface SchemaIssue {
  path: string;
  message: string;
}

/** Checks `value` against `schema`; returns every problem found, each with its path. */
export function validateSchema(schema: JsonSchema, value: unknown, components: Components): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  check(schema, value, "", components, issues);
  return issues;
}

function check(
  input: JsonSchema | boolean,
  value: unknown,
  path: string,
  components: Components,
  issues: SchemaIssue[],
): void {
  // `true` accepts anything; `false` nothing (in `properties`, a field that must not be there).
  if (input === true) return;
  if (input === false) {
    issues.push({ path, message: "must not be given" });
    return;
  }
  const schema = resolveSchema(input, components);
  const fail = (message: string) => issues.push({ path, message });

  if (schema.allOf) for (const part of schema.allOf) check(part, value, path, components, issues);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const results = alternatives.map((part) => {
      const found: SchemaIssue[] = [];
      check(part, value, path, components, found);
      return found;
    });
    if (!results.some((found) => found.length === 0)) {
      const closest = results.reduce((best, found) => (found.length < best.length ? found : best));
      issues.push(...closest);
    }
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => isType(value, type))) {
      fail(`must be ${types.map(article).join(" or ")}, not ${describeValue(value)}`);
      return;
    }
  }
  if (schema.enum && !schema.enum.some((allowed) => sameJson(allowed, value))) {
    fail(`must be one of ${schema.enum.map((allowed) => JSON.stringify(allowed)).join(", ")}`);
  }
  if ("const" in schema && !sameJson(schema.const, value)) fail(`must be ${JSON.stringify(schema.const)}`);
  if (typeof value === "string") checkString(schema, value, fail);
  if (typeof value === "number") checkNumber(schema, value, fail);
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) {
      fail(`must hold at least ${schema.minItems} item${schema.minItems === 1 ? "" : "s"}`);
    }
    if (schema.maxItems !== undefined && value.length > schema.maxItems) {
      fail(`must hold at most ${schema.maxItems} items`);
    }
    if (schema.uniqueItems === true) {
      const repeated = value.findIndex((item, index) => value.slice(0, index).some((e) => sameJson(e, item)));
      if (repeated >= 0) fail(`must not hold the same item twice (item ${repeated} repeats an earlier one)`);
    }
    const items = schema.items;
    if (items) {
      for (const [index, item] of value.entries()) check(items, item, join(path, index), components, issues);
    }
  } else if (isObject(value)) {
    checkObject(schema, value, path, components, issues);
  }
  if (schema.if !== undefined) checkCondition(schema, value, path, components, issues);
}

/**
 * `if`/`then`/`else`: the branch that applies must hold. A `then` that fails says when it applies, as
 * far as the condition can be put in words (fields that are all absent).
 */
function checkCondition(
  schema: JsonSchema,
  value: unknown,
  path: string,
  components: Components,
  issues: SchemaIssue[],
): void {
  const found: SchemaIssue[] = [];
  check(schema.if ?? true, value, path, components, found);
  const branch = found.length === 0 ? schema.then : schema.else;
  if (branch === undefined) return;
  const failed: SchemaIssue[] = [];
  check(branch, value, path, components, failed);
  const when = found.length === 0 ? conditionInWords(schema.if) : undefined;
  for (const issue of failed) issues.push(when ? { ...issue, message: `${issue.message} ${when}` } : issue);
}

/** `when none of input, output is given` for an `if` that only says those fields are absent. */
function conditionInWords(condition: JsonSchema | boolean | undefined): string | undefined {
  if (typeof condition !== "object") return undefined;
  const { properties, ...rest } = condition;
  if (!properties || Object.keys(rest).length > 0) return undefined;
  const absent = Object.entries(properties as Record<string, JsonSchema | boolean>).filter(
    ([, inner]) => inner === false,
  );
  if (absent.length === 0 || absent.length !== Object.keys(properties).length) return undefined;
  return `when none of ${absent.map(([name]) => name).join(", ")} is given`;
}

function checkString(schema: JsonSchema, value: string, fail: (message: string) => void): void {
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength) {
    fail(schema.minLength === 1 ? "must not be empty" : `must be at least ${schema.minLength} characters`);
  }
  if (schema.maxLength !== undefined && length > schema.maxLength) {
    fail(`must be at most ${schema.maxLength} characters`);
  }
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value)) {
    fail(patternMeanings[schema.pattern] ?? `must match ${schema.pattern}`);
  }
}

/** Patterns of the document whose meaning reads better in words. */
const patternMeanings: Record<string, string> = {
  "\\S": "must not be only white space",
};

function checkNumber(schema: JsonSchema, value: number, fail: (message: string) => void): void {
  if (schema.minimum !== undefined && value < schema.minimum) fail(`must be at least ${schema.minimum}`);
  if (schema.maximum !== undefined && value > schema.maximum) fail(`must be at most ${schema.maximum}`);
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) {
    fail(`must be greater than ${schema.exclusiveMinimum}`);
  }
  if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) {
    fail(`must be less than ${schema.exclusiveMaximum}`);
  }
}

function checkObject(
  schema: JsonSchema,
  value: Record<string, unknown>,
  path: string,
  components: Components,
  issues: SchemaIssue[],
): void {
  const keys = Object.keys(value);
  for (const key of schema.required ?? []) {
    if (!(key in value)) issues.push({ path: join(path, key), message: "is required" });
  }
  if (schema.minProperties !== undefined && keys.length < schema.minProperties) {
    const message =
      schema.minProperties === 1 ? "must not be empty" : `must have at least ${schema.minProperties} fields`;
    issues.push({ path, message });
  }
  if (schema.maxProperties !== undefined && keys.length > schema.maxProperties) {
    issues.push({ path, message: `must have at most ${schema.maxProperties} fields` });
  }
  const properties: Record<string, JsonSchema | boolean> = schema.properties ?? {};
  for (const key of keys) {
    const property = properties[key];
    if (schema.propertyNames) check(schema.propertyNames, key, join(path, key), components, issues);
    if (property !== undefined) check(property, value[key], join(path, key), components, issues);
    else if (schema.additionalProperties === false) {
      issues.push({ path: join(path, key), message: "is not a known field" });
    } else if (typeof schema.additionalProperties === "object") {
      check(schema.additionalProperties, value[key], join(path, key), components, issues);
    }
  }
}

const join = (path: string, key: string | number): string => (path ? `${path}.${key}` : String(key));

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

function isType(value: unknown, type: string): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    default:
      return typeof value === type;
  }
}

const article = (type: string): string =>
  type === "null" ? "null" : `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number" && !Number.isInteger(value)) return "a fractional number";
  return article(typeof value);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
