// Pieces of Python source the generator writes: identifiers, literals, type hints and docstrings.
import { pascalCase, snakeCase } from "../../scripts/openapi-model.mjs";

export const PYTHON_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

/** A Python identifier for a wire name: snake_case, with `_` after a keyword or a taken name. */
export function pythonName(wire, taken = new Set()) {
  let name = snakeCase(wire) || "field";
  if (/^[0-9]/.test(name)) name = `_${name}`;
  while (PYTHON_KEYWORDS.has(name) || taken.has(name)) name = `${name}_`;
  return name;
}

/** The hint of each JSON Schema type that is one Python type. */
export const SCALAR_HINTS = new Map([
  ["string", "str"],
  ["integer", "int"],
  ["number", "float"],
  ["boolean", "bool"],
  ["null", "None"],
]);

export const str = (text) => JSON.stringify(text);
export const isObjectWithProperties = (schema) =>
  schema && typeof schema === "object" && schema.properties && Object.keys(schema.properties).length > 0;
export const variantsOf = (schema) => schema?.anyOf ?? schema?.oneOf;
export const isNull = (schema) => schema?.type === "null";

export function literal(schema) {
  const values = schema.const !== undefined ? [schema.const] : schema.enum;
  const literals = values.filter((value) => value !== null).map(pythonLiteral);
  const hint = literals.length > 0 ? `Literal[${literals.join(", ")}]` : "None";
  return values.includes(null) && literals.length > 0 ? optional(hint) : hint;
}

function pythonLiteral(value) {
  if (value === true) return "True";
  if (value === false) return "False";
  return JSON.stringify(value);
}

export function optional(hint) {
  if (hint === "Any" || hint === "Cell" || hint === "None" || hint.startsWith("Optional[")) return hint;
  return `Optional[${hint}]`;
}

export function unionHint(hints) {
  const unique = [...new Set(hints)];
  if (unique.includes("Any") || unique.includes("Cell")) return unique.includes("Cell") ? "Cell" : "Any";
  return unique.length === 1 ? unique[0] : `Union[${unique.join(", ")}]`;
}

/**
 * The name part of a union variant: its constant discriminators (`field: "traceId", op: ["eq"]` →
 * `TraceIdEq`), else its position.
 */
export function variantSuffix(variant, index) {
  const constants = Object.values(variant?.properties ?? {}).flatMap((property) => {
    if (typeof property?.const === "string") return [property.const];
    if (Array.isArray(property?.enum) && property.enum.length === 1 && typeof property.enum[0] === "string") {
      return [property.enum[0]];
    }
    return [];
  });
  return constants.length > 0 ? constants.map(pascalCase).join("") : String(index + 1);
}

export function singular(hint) {
  return hint.endsWith("s") && !hint.endsWith("ss") ? hint.slice(0, -1) : `${hint}Item`;
}

export function docText(text) {
  return text.replaceAll("\\", "\\\\").replaceAll('"""', '\\"\\"\\"');
}

export function docstring(text, indent) {
  const lines = docText(text).split("\n");
  if (lines.length === 1) return [`${indent}"""${lines[0]}"""`];
  return [
    `${indent}"""${lines[0]}`,
    ...lines.slice(1).map((line) => (line ? `${indent}${line}` : "")),
    `${indent}"""`,
  ];
}
