import type { Input, Location, ValueKind } from "./command-tree";
import { type Components, type JsonSchema, resolveSchema } from "./json-schema";
import { globalFlags } from "./local-commands";

/* How a parameter, a header or a body field of an operation becomes a flag, and what its text means. */

export function makeInput(
  name: string,
  location: Location,
  raw: JsonSchema,
  required: boolean,
  description: string | undefined,
  components: Components,
): Input {
  const schema = resolveSchema(raw, components);
  const types = typesOf(schema, components);
  const nullable = types.has("null");
  types.delete("null");
  const only = types.size === 1 ? [...types][0] : undefined;
  const kind: ValueKind =
    only === "string" || only === "integer" || only === "number" || only === "boolean" ? only : "json";
  const input: Input = {
    name,
    flag: kebab(name),
    location,
    kind,
    required,
    nullable,
    acceptsString: kind === "json" && (types.has("string") || types.size === 0),
    schema: raw,
  };
  const text = description ?? schema.description;
  if (text) input.description = text;
  if (schema.default !== undefined) input.default = schema.default;
  if (Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === "string")) {
    input.enum = schema.enum as string[];
  }
  return input;
}

/** The JSON types a schema allows; empty when it allows anything. */
function typesOf(schema: JsonSchema, components: Components, depth = 0): Set<string> {
  const resolved = resolveSchema(schema, components);
  if (resolved.type !== undefined) {
    return new Set(Array.isArray(resolved.type) ? resolved.type : [resolved.type]);
  }
  if (resolved.enum) return new Set(resolved.enum.map((value) => (value === null ? "null" : typeof value)));
  const alternatives = resolved.anyOf ?? resolved.oneOf;
  if (alternatives && depth < 8) {
    const all = new Set<string>();
    for (const part of alternatives) {
      const types = typesOf(part, components, depth + 1);
      if (types.size === 0) return types;
      for (const type of types) all.add(type);
    }
    return all;
  }
  if (resolved.properties) return new Set(["object"]);
  return new Set();
}

const RESERVED_FLAGS = new Set([
  ...globalFlags.map((flag) => flag.flag),
  "json",
  "help",
  "version",
  "with-token",
  "dir",
]);

/** Body fields whose flag would collide with a parameter or a CLI flag become `--body-<name>`. */
export function avoidFlagClashes(inputs: Input[]): void {
  const taken = new Set(inputs.filter((input) => input.location !== "body").map((input) => input.flag));
  for (const input of inputs) {
    if (input.location === "body" && (taken.has(input.flag) || RESERVED_FLAGS.has(input.flag))) {
      input.flag = `body-${input.flag}`;
    }
  }
  for (const input of inputs) {
    if (input.location !== "body" && RESERVED_FLAGS.has(input.flag) && input.flag !== "version") {
      input.flag = `${input.location}-${input.flag}`;
    }
  }
}

/** `expectedOutput` → `expected-output`; `If-Match` → `if-match`. */
export function kebab(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .toLowerCase();
}
