import fc from "fast-check";
import type { JsonSchema } from "./document";

/**
 * Values that a JSON schema of the document allows, or nearly: patterns, bounds, enums and required
 * properties are followed, nesting is cut short (a cell is any JSON value), and lists stay short.
 */
export function arbitraryOf(
  schema: JsonSchema,
  resolve: (schema: JsonSchema) => JsonSchema,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (schema.$ref) {
    if (depth > 3) return fc.constantFrom(null, "leaf", 1);
    return arbitraryOf(resolve(schema), resolve, depth + 1);
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return fc.oneof(...variants.map((v) => arbitraryOf(v, resolve, depth + 1)));
  if (schema.allOf) return arbitraryOf(mergeAll(schema.allOf.map(resolve)), resolve, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (type.length > 1) {
    return fc.oneof(...type.map((t) => arbitraryOf({ ...schema, type: t }, resolve, depth)));
  }
  switch (type[0]) {
    case "string":
      return stringOf(schema);
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000_000 });
    case "number":
      return fc.double({
        min: schema.minimum ?? -1e6,
        max: schema.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(
        schema.items ? arbitraryOf(schema.items, resolve, depth + 1) : fc.jsonValue({ maxDepth: 1 }),
        {
          minLength: schema.minItems ?? 0,
          maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)),
        },
      );
    case "object":
      return objectOf(schema, resolve, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === "email") return fc.emailAddress();
  if (schema.format === "date-time") {
    return fc
      .date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  const maxLength = Math.min(schema.maxLength ?? 40, 200);
  if (schema.pattern) {
    try {
      return fc
        .stringMatching(new RegExp(schema.pattern))
        .filter((s) => s.length <= (schema.maxLength ?? 1e9));
    } catch {
      // A pattern fast-check cannot generate from (a lookahead): any text of the right length.
    }
  }
  return fc.string({
    minLength: schema.minLength ?? 0,
    maxLength: Math.max(schema.minLength ?? 0, maxLength),
  });
}

function objectOf(
  schema: JsonSchema,
  resolve: (schema: JsonSchema) => JsonSchema,
  depth: number,
): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const shape = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, arbitraryOf(property, resolve, depth + 1)]),
  );
  const fixed = fc.record(shape, {
    requiredKeys: (schema.required ?? []).filter((name) => name in properties),
  });
  const extra = schema.additionalProperties;
  if (typeof extra !== "object" || Object.keys(properties).length > 0) return fixed;
  const keys = schema.propertyNames
    ? stringOf(schema.propertyNames)
    : fc.string({ minLength: 1, maxLength: 12 });
  return fc.dictionary(keys, arbitraryOf(extra, resolve, depth + 1), { maxKeys: 3 });
}

function mergeAll(parts: JsonSchema[]): JsonSchema {
  const merged: JsonSchema = {};
  for (const part of parts) {
    Object.assign(merged, part, {
      properties: { ...merged.properties, ...part.properties },
      required: [...(merged.required ?? []), ...(part.required ?? [])],
    });
  }
  return merged;
}
