// The TypeScript of the operations: each operation's query, body, options and response types, and a
// class per resource with a method per operation (and an async iterator per paginated one).
import {
  camelCase,
  headerOptionName,
  operationDoc,
  pascalCase,
  resolveRef,
  resourceClassName,
} from "../../scripts/openapi-model.mjs";
import { escapeDoc, jsDoc, tsType, typeDeclaration } from "./typescript-types.mjs";

const RESERVED = new Set(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await".split(
    " ",
  ),
);

const opType = (op, part) => `${pascalCase(op.operationId)}${part}`;
const optionsType = (op) => (op.headerParams.length > 0 ? opType(op, "Options") : "RequestOptions");

/** The types an operation's method takes and answers: `ListRowsQuery`, `ListRowsBody`, `ListRowsResponse`… */
export function operationTypes(op, document) {
  const lines = [];
  if (op.queryParams.length > 0) {
    lines.push(...typeDeclaration(opType(op, "Query"), parametersSchema(op.queryParams), document));
  }
  if (op.body) lines.push(...typeDeclaration(opType(op, "Body"), op.body.schema, document));
  if (op.headerParams.length > 0) {
    const headers = parametersSchema(
      op.headerParams.map((parameter) => ({
        ...parameter,
        name: camelCase(headerOptionName(parameter.name)),
      })),
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
function parametersSchema(parameters) {
  const properties = {};
  for (const parameter of parameters) {
    properties[parameter.name] = parameter.description
      ? { ...parameter.schema, description: parameter.description }
      : parameter.schema;
  }
  return {
    type: "object",
    properties,
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    additionalProperties: false,
  };
}

export function resourceClass(resource, document) {
  const lines = [
    `/** ${escapeDoc(resource.description ?? `The ${resource.name} operations`)} */`,
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
    ...jsDoc(operationDoc(op), "  "),
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
    `  ${camelCase(op.iteratorCommand)}(${args.join(", ")}): AsyncGenerator<${item}, void, undefined> {`,
    `    return paginate((cursor) => this.${camelCase(op.command)}(${call.join(", ")}));`,
    "  }",
  ];
}

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
