// Reads the committed OpenAPI document and describes each operation the way both SDK generators need it:
// its resource, method names, parameters in call order, body, response, pagination and documentation.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const documentPath = join(repoRoot, "shared/contracts/openapi.json");
export const COMPONENT_PREFIX = "#/components/schemas/";

const HTTP_METHODS = ["get", "post", "put", "patch", "delete"];
/** Parameters every call already has as a per-call option. */
const OPTION_PARAMETERS = new Set(["RequestId", "IdempotencyKey"]);

export function loadDocument(path = documentPath) {
  return JSON.parse(readFileSync(path, "utf8"));
}

/** `list-rows` → `listRows`, `api-keys` → `apiKeys`, `If-Match` → `ifMatch`. */
export function camelCase(text) {
  const words = splitWords(text);
  return words.map((word, i) => (i === 0 ? word : capitalize(word))).join("");
}

export function pascalCase(text) {
  return splitWords(text).map(capitalize).join("");
}

/** `expectedOutput` → `expected_output`, `list-rows` → `list_rows`. */
export function snakeCase(text) {
  return splitWords(text).join("_");
}

function splitWords(text) {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

const capitalize = (word) => word.charAt(0).toUpperCase() + word.slice(1);

/** The command of a paginated operation turned into its iterator: `list-rows` → `iterate-rows`, `list` → `iterate`. */
function iteratorCommand(command) {
  if (command === "list") return "iterate";
  if (command.startsWith("list-")) return `iterate-${command.slice("list-".length)}`;
  return `iterate-${command}`;
}

/** A header parameter's name as an option: `If-Match` → `If-Match`, `X-Svc-Project` → `Svc-Project`. */
export function headerOptionName(header) {
  return header.replace(/^X-/i, "");
}

export function resolveRef(document, schema) {
  let current = schema;
  const seen = new Set();
  while (current && typeof current.$ref === "string") {
    const ref = current.$ref;
    if (!ref.startsWith(COMPONENT_PREFIX) || seen.has(ref)) return current;
    seen.add(ref);
    current = document.components?.schemas?.[ref.slice(COMPONENT_PREFIX.length)];
  }
  return current;
}

/**
 * An operation whose request or success body is a file rather than JSON (an import, an export), or a
 * stream of events that stays open (a dataset's live changes): the SDKs' own helpers take these.
 */
const isFileTransfer = (op) => op["x-svc-file"] !== undefined || op["x-svc-events"] !== undefined;

/** The web application's session (signing the browser in and out): only the browser's client has it. */
const isBrowserSession = (op) => op["x-svc-browser-session"] !== undefined;

export const refName = (schema) =>
  typeof schema?.$ref === "string" && schema.$ref.startsWith(COMPONENT_PREFIX)
    ? schema.$ref.slice(COMPONENT_PREFIX.length)
    : undefined;

/**
 * Every operation of the document, grouped by resource (its first tag), in a stable order. Throws when
 * two operations of one resource would get the same method name, so a clash is found at generation time.
 * The browser's session operations only with `browserSession` (the TypeScript SDK, which the web
 * application uses).
 */
export function describeApi(document, { browserSession = false } = {}) {
  const operations = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      // A file sent or received as the body is not a JSON call: the SDKs' file helpers take these.
      if (op && !isFileTransfer(op) && (browserSession || !isBrowserSession(op)))
        operations.push(describeOperation(document, path, method.toUpperCase(), op, item));
    }
  }
  const resources = new Map();
  for (const op of operations) {
    const list = resources.get(op.resource) ?? [];
    list.push(op);
    resources.set(op.resource, list);
  }
  const sorted = [...resources.entries()].sort(([a], [b]) => a.localeCompare(b));
  for (const [resource, ops] of sorted) {
    ops.sort((a, b) => a.command.localeCompare(b.command) || a.operationId.localeCompare(b.operationId));
    const names = new Map();
    for (const op of ops) {
      for (const command of [op.command, op.iteratorCommand]) {
        if (!command) continue;
        const other = names.get(command);
        if (other) {
          throw new Error(
            `resource "${resource}": ${other} and ${op.operationId} both need the method "${command}"; give one another x-svc-command`,
          );
        }
        names.set(command, op.operationId);
      }
    }
  }
  return sorted.map(([name, ops]) => ({
    name,
    description: (document.tags ?? []).find((tag) => tag.name === name)?.description,
    operations: ops,
  }));
}

/** The class of a resource's operations in either SDK: `datasets` → `DatasetsResource`. */
export const resourceClassName = (resource) => `${pascalCase(resource.name)}Resource`;

/**
 * A method's documentation: the operation's summary as a sentence and its description, then `extra`
 * paragraphs (an SDK's own, such as its arguments), then the HTTP call it makes.
 */
export function operationDoc(op, extra = []) {
  const paragraphs = [op.summary ? sentence(op.summary) : "", ...op.description.split("\n\n")]
    .map((part) => part.trim())
    .filter(Boolean);
  paragraphs.push(...extra, `\`${op.method} ${op.path}\` (operation \`${op.operationId}\`)`);
  return [...new Set(paragraphs)].join("\n\n");
}

const sentence = (text) => (/[.!?]$/.test(text) ? text : `${text}.`);

function withBooleans(schema) {
  const values = schema?.enum;
  if (Array.isArray(values) && values.length === 2 && values.includes("true") && values.includes("false")) {
    return { anyOf: [{ type: "boolean" }, schema] };
  }
  return schema;
}

function describeOperation(document, path, method, op, item) {
  const where = `${method} ${path}`;
  const operationId = required(op.operationId, `${where} has no operationId`);
  const resource = required(op.tags?.[0], `${operationId} has no tag`);
  const command = required(op["x-svc-command"], `${operationId} has no x-svc-command`);
  const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].flatMap((parameter) => {
    if (parameter.$ref) {
      const name = parameter.$ref.split("/").pop();
      if (OPTION_PARAMETERS.has(name)) return [];
      const resolved = document.components?.parameters?.[name];
      return resolved ? [resolved] : [];
    }
    return [parameter];
  });
  const byLocation = (location) => parameters.filter((parameter) => parameter.in === location);
  const pathNames = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
  const pathParams = pathNames.map((name) => {
    const parameter = byLocation("path").find((candidate) => candidate.name === name);
    return { name, schema: parameter?.schema ?? { type: "string" }, description: parameter?.description };
  });
  const toParam = (parameter) => ({
    name: parameter.name,
    schema: parameter.schema ?? {},
    description: parameter.description,
    required: parameter.required === true,
  });
  // A query flag documented as the strings "true"/"false" also takes a boolean, in either SDK.
  const queryParams = byLocation("query").map((parameter) => {
    const param = toParam(parameter);
    return { ...param, schema: withBooleans(param.schema) };
  });
  const headerParams = byLocation("header").map(toParam);

  const bodyMedia = op.requestBody?.content?.["application/json"];
  const body = bodyMedia
    ? { schema: bodyMedia.schema ?? {}, required: op.requestBody.required === true }
    : undefined;

  const successStatus = Object.keys(op.responses ?? {})
    .filter((status) => /^2\d\d$/.test(status))
    .sort()[0];
  const success = successStatus ? op.responses[successStatus] : undefined;
  const response = success?.content?.["application/json"]?.schema;
  const paginated = op["x-svc-paginated"] === true;

  const described = {
    operationId,
    resource,
    command,
    method,
    path,
    summary: op.summary ?? "",
    description: op.description ?? "",
    pathParams,
    queryParams,
    headerParams,
    body,
    response,
    successStatus: Number(successStatus ?? 200),
    paginated,
    /** The command of the method that iterates over every page, for a paginated operation. */
    iteratorCommand: paginated ? iteratorCommand(command) : undefined,
    pagination: undefined,
  };
  if (paginated) described.pagination = describePagination(document, described);
  return described;
}

/** Where a paginated operation takes its cursor, and the schema of one item of its pages. */
function describePagination(document, op) {
  const page = resolveRef(document, op.response);
  const items = page?.properties?.items;
  if (!items || resolveRef(document, items)?.type !== "array") {
    throw new Error(`${op.operationId} is paginated but its response has no "items" array`);
  }
  const itemSchema = resolveRef(document, items).items ?? {};
  if (op.queryParams.some((parameter) => parameter.name === "cursor"))
    return { cursorIn: "query", itemSchema };
  const body = resolveRef(document, op.body?.schema);
  if (body?.properties?.cursor) return { cursorIn: "body", itemSchema };
  throw new Error(`${op.operationId} is paginated but takes no "cursor" in its query or body`);
}

function required(value, message) {
  if (value === undefined || value === null || value === "") throw new Error(message);
  return value;
}

/**
 * Writes each generated file, or with `check` only compares: returns the paths that were (or would be)
 * changed, relative to the repository root.
 */
export function writeOrCheck(files, { check }) {
  const changed = [];
  for (const [path, text] of Object.entries(files)) {
    const absolute = join(repoRoot, path);
    const current = existsSync(absolute) ? readFileSync(absolute, "utf8") : undefined;
    if (current === text) continue;
    changed.push(path);
    if (!check) {
      mkdirSync(dirname(absolute), { recursive: true });
      writeFileSync(absolute, text);
    }
  }
  return changed;
}
