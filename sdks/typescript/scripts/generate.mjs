// Produces src/api.generated.ts from the OpenAPI document: one type per schema, one class per resource
// with a method per operation (and an async iterator per paginated one), and the operation index.
import {
  camelCase,
  describeApi,
  headerOptionName,
  iteratorCommand,
  pascalCase,
  refName,
  resolveRef,
} from "../../scripts/openapi-model.mjs";

export const outputPath = "sdks/typescript/src/api.generated.ts";

const RESERVED = new Set(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await".split(
    " ",
  ),
);

/** @returns {Record<string, string>} file path (from the repository root) → content */
export function generate(document) {
  const api = describeApi(document);
  const out = [];
  out.push(
    "// Generated from shared/contracts/openapi.json by sdks/scripts/generate.mjs; do not edit.",
    "// Regenerate with `npm run generate --workspace @svc/sdk` after `npm run openapi`.",
    "",
    'import { paginate, withCursor } from "./pagination.js";',
    'import { encodePath, type RequestOptions, type Transport } from "./transport.js";',
    "",
    "// Schemas",
    "",
  );
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    out.push(...typeDeclaration(typeName(name), schema, document));
  }

  out.push("// Operations", "");
  for (const resource of api) {
    for (const op of resource.operations) out.push(...operationTypes(op, document));
  }

  for (const resource of api) out.push(...resourceClass(resource, document));

  out.push(
    "/** Every resource of the API, each with a method per operation. */",
    "export class Resources {",
    ...api.map((resource) => `  readonly ${camelCase(resource.name)}: ${resourceClassName(resource)};`),
    "",
    "  constructor(transport: Transport) {",
    ...api.map(
      (resource) => `    this.${camelCase(resource.name)} = new ${resourceClassName(resource)}(transport);`,
    ),
    "  }",
    "}",
    "",
    "/** Where each operation of the API lives in this SDK, by operationId. */",
    "export const operations = {",
  );
  for (const resource of api) {
    for (const op of resource.operations) {
      const fields = [
        `resource: ${JSON.stringify(camelCase(resource.name))}`,
        `method: ${JSON.stringify(camelCase(op.command))}`,
        op.paginated ? `iterator: ${JSON.stringify(camelCase(iteratorCommand(op.command)))}` : undefined,
        `httpMethod: ${JSON.stringify(op.method)}`,
        `path: ${JSON.stringify(op.path)}`,
      ].filter(Boolean);
      out.push(`  ${op.operationId}: { ${fields.join(", ")} },`);
    }
  }
  out.push("} as const;", "");
  return { [outputPath]: `${out.join("\n")}` };
}

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
const typeName = (name) => (GLOBAL_TYPES.has(pascalCase(name)) ? `Api${pascalCase(name)}` : pascalCase(name));
const resourceClassName = (resource) => `${pascalCase(resource.name)}Resource`;
const opType = (op, part) => `${pascalCase(op.operationId)}${part}`;

function typeDeclaration(name, schema, document, extraDoc = []) {
  const doc = [schema?.description, ...extraDoc].filter(Boolean);
  return [...jsDoc(doc.join("\n\n"), ""), `export type ${name} = ${tsType(schema, "", document)};`, ""];
}

function operationTypes(op, document) {
  const lines = [];
  if (op.queryParams.length > 0) {
    lines.push(...typeDeclaration(opType(op, "Query"), parametersSchema(op.queryParams, true), document));
  }
  if (op.body) lines.push(...typeDeclaration(opType(op, "Body"), op.body.schema, document));
  if (op.headerParams.length > 0) {
    const headers = parametersSchema(
      op.headerParams.map((parameter) => ({
        ...parameter,
        name: camelCase(headerOptionName(parameter.name)),
      })),
      false,
    );
    lines.push(
      `export type ${opType(op, "Options")} = RequestOptions & ${tsType(headers, "", document)};`,
      "",
    );
  }
  const response = op.successStatus === 204 || !op.response ? { type: "null" } : op.response;
  if (op.successStatus !== 204) lines.push(...typeDeclaration(opType(op, "Response"), response, document));
  return lines;
}

/** The parameters of one location as one object schema, so they read like a body. */
function parametersSchema(parameters, acceptBooleans) {
  const properties = {};
  for (const parameter of parameters) {
    const schema = acceptBooleans ? withBooleans(parameter.schema) : parameter.schema;
    properties[parameter.name] = parameter.description
      ? { ...schema, description: parameter.description }
      : schema;
  }
  return {
    type: "object",
    properties,
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    additionalProperties: false,
  };
}

/** A query flag documented as the strings "true"/"false" also takes a boolean. */
function withBooleans(schema) {
  const values = schema?.enum;
  if (Array.isArray(values) && values.length === 2 && values.includes("true") && values.includes("false")) {
    return { anyOf: [{ type: "boolean" }, schema] };
  }
  return schema;
}

function resourceClass(resource, document) {
  const lines = [
    `/** ${describeResource(resource, document)} */`,
    `export class ${resourceClassName(resource)} {`,
  ];
  lines.push(
    "  readonly #transport: Transport;",
    "",
    "  constructor(transport: Transport) {",
    "    this.#transport = transport;",
    "  }",
  );
  for (const op of resource.operations) {
    lines.push("", ...method(op, document));
    if (op.paginated) lines.push("", ...iterator(op, document));
  }
  lines.push("}", "");
  return lines;
}

function describeResource(resource, document) {
  const tag = (document.tags ?? []).find((candidate) => candidate.name === resource.name);
  return escapeDoc(tag?.description ?? `The ${resource.name} operations`);
}

/** Argument names of an operation in call order, renamed where they would clash. */
function signature(op) {
  const used = new Set();
  const name = (wanted) => {
    let candidate = RESERVED.has(wanted) ? `${wanted}Value` : wanted;
    while (used.has(candidate)) candidate = `${candidate}_`;
    used.add(candidate);
    return candidate;
  };
  const path = op.pathParams.map((parameter) => ({
    ...parameter,
    variable: name(camelCase(parameter.name)),
  }));
  const body = op.body ? name("body") : undefined;
  const query = op.queryParams.length > 0 ? name("query") : undefined;
  const options = name("options");
  return { path, body, query, options };
}

function pathTemplate(op, path) {
  let template = op.path;
  for (const parameter of path) {
    template = template.replace(`{${parameter.name}}`, `\${encodePath(${parameter.variable})}`);
  }
  return `\`${template}\``;
}

function method(op, document) {
  const sig = signature(op);
  const args = sig.path.map(
    (parameter) => `${parameter.variable}: ${tsType(parameter.schema, "  ", document)}`,
  );
  if (sig.body) args.push(`${sig.body}${bodyRequired(op, document) ? "" : "?"}: ${opType(op, "Body")}`);
  if (sig.query) {
    const requiredQuery = op.queryParams.some((parameter) => parameter.required);
    args.push(`${sig.query}${requiredQuery ? "" : "?"}: ${opType(op, "Query")}`);
  }
  const requiredHeader = op.headerParams.some((parameter) => parameter.required);
  args.push(`${sig.options}${requiredHeader ? "" : "?"}: ${optionsType(op)}`);
  const result = op.successStatus === 204 ? "void" : opType(op, "Response");

  const request = [`method: "${op.method}"`, `path: ${pathTemplate(op, sig.path)}`];
  if (sig.query) request.push(`query: ${sig.query}`);
  if (sig.body) request.push(bodyRequired(op, document) ? `body: ${sig.body}` : `body: ${sig.body} ?? {}`);
  if (op.headerParams.length > 0) {
    const headers = op.headerParams.map(
      (parameter) =>
        `${JSON.stringify(parameter.name)}: ${sig.options}?.${camelCase(headerOptionName(parameter.name))}`,
    );
    request.push(`headers: { ${headers.join(", ")} }`);
  }
  request.push(`options: ${sig.options}`);

  return [
    ...jsDoc(methodDoc(op), "  "),
    `  ${camelCase(op.command)}(${args.join(", ")}): Promise<${result}> {`,
    `    return this.#transport.request<${result}>({`,
    ...request.map((line) => `      ${line},`),
    "    });",
    "  }",
  ];
}

function iterator(op, document) {
  const sig = signature(op);
  const item = tsType(op.pagination.itemSchema, "  ", document);
  const args = sig.path.map(
    (parameter) => `${parameter.variable}: ${tsType(parameter.schema, "  ", document)}`,
  );
  const call = sig.path.map((parameter) => parameter.variable);
  if (sig.body) {
    const withoutCursor = op.pagination.cursorIn === "body";
    const type = withoutCursor ? `Omit<${opType(op, "Body")}, "cursor">` : opType(op, "Body");
    const needed = bodyRequired(op, document, withoutCursor ? ["cursor"] : []);
    args.push(`${sig.body}${needed ? "" : "?"}: ${type}`);
    call.push(withoutCursor ? `withCursor(${sig.body}, cursor)` : sig.body);
  }
  if (sig.query) {
    const withoutCursor = op.pagination.cursorIn === "query";
    const type = withoutCursor ? `Omit<${opType(op, "Query")}, "cursor">` : opType(op, "Query");
    const needed = op.queryParams.some((parameter) => parameter.required && parameter.name !== "cursor");
    args.push(`${sig.query}${needed ? "" : "?"}: ${type}`);
    call.push(withoutCursor ? `withCursor(${sig.query}, cursor)` : sig.query);
  }
  const requiredHeader = op.headerParams.some((parameter) => parameter.required);
  args.push(`${sig.options}${requiredHeader ? "" : "?"}: Omit<${optionsType(op)}, "idempotencyKey">`);
  call.push(sig.options);
  return [
    ...jsDoc(
      `Every item of \`${camelCase(op.command)}\`, page after page, following \`nextCursor\` until the last page.`,
      "  ",
    ),
    `  ${camelCase(iteratorCommand(op.command))}(${args.join(", ")}): AsyncGenerator<${item}, void, undefined> {`,
    `    return paginate((cursor) => this.${camelCase(op.command)}(${call.join(", ")}));`,
    "  }",
  ];
}

const optionsType = (op) => (op.headerParams.length > 0 ? opType(op, "Options") : "RequestOptions");

/**
 * A body is a required argument, except that of a list read through POST (its filters, sort and page
 * are all optional), which defaults to `{}`.
 */
function bodyRequired(op, document, ignoring = []) {
  if (!op.body?.required) return false;
  if (op.pagination?.cursorIn !== "body") return true;
  const schema = resolveRef(document, op.body.schema);
  return (schema?.required ?? []).some((name) => !ignoring.includes(name));
}

function methodDoc(op) {
  const paragraphs = [op.summary ? sentence(op.summary) : "", ...op.description.split("\n\n")]
    .map((part) => part.trim())
    .filter(Boolean);
  paragraphs.push(`\`${op.method} ${op.path}\` (operation \`${op.operationId}\`)`);
  return [...new Set(paragraphs)].join("\n\n");
}

const sentence = (text) => (/[.!?]$/.test(text) ? text : `${text}.`);

function jsDoc(text, indent) {
  if (!text) return [];
  const lines = escapeDoc(text).split("\n");
  if (lines.length === 1) return [`${indent}/** ${lines[0]} */`];
  return [
    `${indent}/**`,
    ...lines.map((line) => (line ? `${indent} * ${line}` : `${indent} *`)),
    `${indent} */`,
  ];
}

const escapeDoc = (text) => text.replaceAll("*/", "*\\/");

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
