// The TypeScript of JSON Schemas: a type expression per schema (the subset that zod's converter
// produces), a declaration per named type, and JSDoc comments.
import { pascalCase, refName } from "../../scripts/openapi-model.mjs";

/** Names of global types a schema's type must not shadow. */
const GLOBAL_TYPES = new Set([
  "Array",
  "Date",
  "Error",
  "Function",
  "Map",
  "Object",
  "Promise",
  "Record",
  "Set",
]);

/** The exported type of a component schema. */
export const typeName = (name) =>
  GLOBAL_TYPES.has(pascalCase(name)) ? `Api${pascalCase(name)}` : pascalCase(name);

/** `export type Name = …;` with the schema's description as its comment. */
export function typeDeclaration(name, schema, document) {
  return [
    ...jsDoc(schema?.description ?? "", ""),
    `export type ${name} = ${tsType(schema, "", document)};`,
    "",
  ];
}

export function jsDoc(text, indent) {
  if (!text) return [];
  const lines = escapeDoc(text).split("\n");
  if (lines.length === 1) return [`${indent}/** ${lines[0]} */`];
  return [
    `${indent}/**`,
    ...lines.map((line) => (line ? `${indent} * ${line}` : `${indent} *`)),
    `${indent} */`,
  ];
}

export const escapeDoc = (text) => text.replaceAll("*/", "*\\/");

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The TypeScript type of a JSON Schema (the subset that zod's converter produces). */
export function tsType(schema, indent, document) {
  if (schema === undefined || schema === null || schema === true) return "unknown";
  if (schema === false) return "never";
  const ref = refName(schema);
  if (ref) return document.components?.schemas?.[ref] ? typeName(ref) : "unknown";
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map((value) => JSON.stringify(value)));
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    const variants = schema.anyOf ?? schema.oneOf;
    return union(variants.map((variant) => tsType(variant, indent, document)));
  }
  if (Array.isArray(schema.allOf)) {
    return schema.allOf.map((part) => parenthesize(tsType(part, indent, document))).join(" & ");
  }
  if (Array.isArray(schema.type)) {
    return union(schema.type.map((type) => tsType({ ...schema, type }, indent, document)));
  }
  switch (schema.type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return arrayType(tsType(schema.items, indent, document));
    case "object":
      return objectType(schema, indent, document);
    default:
      return schema.properties ? objectType(schema, indent, document) : "unknown";
  }
}

function objectType(schema, indent, document) {
  const properties = Object.entries(schema.properties ?? {});
  const extra = schema.additionalProperties;
  const index = extra === false || (extra === undefined && properties.length > 0) ? undefined : extra;
  if (properties.length === 0) {
    return index === undefined
      ? "Record<string, never>"
      : `{ [key: string]: ${tsType(index, indent, document)} }`;
  }
  const inner = `${indent}  `;
  const required = new Set(schema.required ?? []);
  const lines = ["{"];
  for (const [name, property] of properties) {
    lines.push(...jsDoc(property?.description ?? "", inner));
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    lines.push(`${inner}${key}${required.has(name) ? "" : "?"}: ${tsType(property, inner, document)};`);
  }
  if (index !== undefined) lines.push(`${inner}[key: string]: unknown;`);
  lines.push(`${indent}}`);
  return lines.join("\n");
}

function union(types) {
  const unique = [...new Set(types)];
  if (unique.includes("unknown")) return "unknown";
  return unique.length === 0 ? "never" : unique.join(" | ");
}

const parenthesize = (type) => (/[|&]/.test(type) && !type.startsWith("{") ? `(${type})` : type);

function arrayType(item) {
  return /^[A-Za-z0-9_.]+$/.test(item) || /^"[^"]*"$/.test(item) ? `${item}[]` : `Array<${item}>`;
}
