// The Python of the operations: a class per resource with a method per operation (keyword arguments for
// the body, query and headers) and an iterator per paginated one, the Resources class, and the index
// of every operation.
import {
  headerOptionName,
  operationDoc,
  pascalCase,
  resolveRef,
  resourceClassName,
  snakeCase,
} from "../../scripts/openapi-model.mjs";
import { docstring, isObjectWithProperties, pythonName, str, variantsOf } from "./python-syntax.mjs";

/** Keyword arguments every method has; a field with one of these names gets a trailing underscore. */
const CALL_OPTIONS = ["timeout", "max_retries", "idempotency_key", "request_id", "headers"];

/** @param {import("./python-types.mjs").PythonTypes} types where the methods' argument and result types are named */
export function resourceClass(resource, types) {
  const lines = [`class ${resourceClassName(resource)}:`];
  lines.push(...docstring(resource.description ?? `The ${resource.name} operations.`, "    "));
  lines.push(
    "",
    "    def __init__(self, transport: Transport) -> None:",
    "        self._transport = transport",
  );
  for (const op of resource.operations) {
    const call = callShape(op, types);
    lines.push("", ...method(op, call));
    if (op.paginated) lines.push("", ...iterator(op, call));
  }
  lines.push("", "");
  return lines;
}

/** Arguments of one operation: positional path parameters, then keywords for body, query and headers. */
function callShape(op, types) {
  const taken = new Set(["self", ...CALL_OPTIONS]);
  const claim = (wire) => {
    const name = pythonName(wire, taken);
    taken.add(name);
    return name;
  };
  const hintBase = pascalCase(op.operationId);
  const path = op.pathParams.map((parameter) => ({
    name: claim(parameter.name),
    wire: parameter.name,
    hint: types.input(parameter.schema, `${hintBase}${pascalCase(parameter.name)}`),
  }));
  const keyword = (wire, schema, isRequired, location, description) => ({
    name: claim(wire),
    wire,
    hint: types.input(schema, `${hintBase}${pascalCase(wire)}`),
    required: isRequired,
    location,
    description,
  });
  const keywords = [];
  let rawBody;
  if (op.body) {
    const schema = resolveRef(types.document, op.body.schema);
    if (isObjectWithProperties(schema) && !variantsOf(schema)) {
      const required = new Set(schema.required ?? []);
      for (const [wire, property] of Object.entries(schema.properties)) {
        keywords.push(keyword(wire, property, required.has(wire), "body", property?.description));
      }
    } else {
      rawBody = { name: claim("body"), hint: types.input(op.body.schema, `${hintBase}Body`) };
    }
  }
  for (const parameter of op.queryParams) {
    keywords.push(
      keyword(parameter.name, parameter.schema, parameter.required, "query", parameter.description),
    );
  }
  for (const parameter of op.headerParams) {
    const entry = keyword(
      headerOptionName(parameter.name),
      parameter.schema,
      parameter.required,
      "header",
      parameter.description,
    );
    keywords.push({ ...entry, wire: parameter.name });
  }
  const response =
    op.successStatus === 204 || !op.response
      ? { hint: "None" }
      : types.output(op.response, `${hintBase}Response`);
  const item =
    op.paginated && response.model
      ? types.models
          .find((model) => model.name === response.model)
          ?.fields.find((field) => field.wire === "items")
      : undefined;
  return { path, keywords, rawBody, response, item };
}

function signature(call, { skip = [], withIdempotency = true } = {}) {
  const args = ["self", ...call.path.map((parameter) => `${parameter.name}: ${parameter.hint}`)];
  const keywords = call.keywords.filter((keyword) => !skip.includes(keyword));
  args.push("*");
  if (call.rawBody) args.push(`${call.rawBody.name}: ${call.rawBody.hint}`);
  for (const keyword of keywords.filter((entry) => entry.required))
    args.push(`${keyword.name}: ${keyword.hint}`);
  for (const keyword of keywords.filter((entry) => !entry.required)) {
    args.push(`${keyword.name}: Union[${keyword.hint}, Unset] = UNSET`);
  }
  args.push("timeout: Optional[float] = None", "max_retries: Optional[int] = None");
  if (withIdempotency) args.push("idempotency_key: Optional[str] = None");
  args.push("request_id: Optional[str] = None", "headers: Optional[Mapping[str, str]] = None");
  return args;
}

function method(op, call) {
  const returns = call.response.hint;
  const byLocation = (location) => call.keywords.filter((keyword) => keyword.location === location);
  const dict = (entries) =>
    `drop_unset({${entries.map((entry) => `${str(entry.wire)}: ${entry.name}`).join(", ")}})`;
  let path = op.path;
  for (const parameter of call.path)
    path = path.replace(`{${parameter.wire}}`, `{path_segment(${parameter.name})}`);
  const request = [str(op.method), call.path.length > 0 ? `f${str(path)}` : str(path)];
  if (byLocation("query").length > 0) request.push(`query=${dict(byLocation("query"))}`);
  if (call.rawBody) request.push(`body=${call.rawBody.name}`);
  else if (op.body) request.push(`body=${dict(byLocation("body"))}`);
  if (byLocation("header").length > 0) request.push(`headers=${dict(byLocation("header"))}`);
  request.push("options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers)");
  if (call.response.model) request.push(`model=${call.response.model}`);
  if (call.response.list) request.push("many=True");
  return [
    `    def ${snakeCase(op.command)}(`,
    ...signature(call).map((arg) => `        ${arg},`),
    `    ) -> ${returns}:`,
    ...docstring(methodDoc(op, call), "        "),
    `        ${returns === "None" ? "" : "return "}self._transport.request(`,
    ...request.map((arg) => `            ${arg},`),
    "        )",
  ];
}

function iterator(op, call) {
  const cursor = call.keywords.find((keyword) => keyword.wire === "cursor" && keyword.location !== "header");
  const item = call.item?.hint?.replace(/^List\[(.*)\]$/, "$1") ?? "Any";
  const forwarded = [
    ...call.path.map((parameter) => parameter.name),
    ...(call.rawBody ? [`${call.rawBody.name}=${call.rawBody.name}`] : []),
    ...call.keywords.map((keyword) =>
      keyword === cursor ? `${keyword.name}=page_cursor` : `${keyword.name}=${keyword.name}`,
    ),
    "timeout=timeout",
    "max_retries=max_retries",
    "request_id=request_id",
    "headers=headers",
  ];
  return [
    `    def ${snakeCase(op.iteratorCommand)}(`,
    ...signature(call, { skip: [cursor], withIdempotency: false }).map((arg) => `        ${arg},`),
    `    ) -> Iterator[${item}]:`,
    ...docstring(
      `Every item of \`${snakeCase(op.command)}\`, page after page, following \`next_cursor\` until the last page.`,
      "        ",
    ),
    "",
    `        def page(page_cursor: Union[str, Unset]) -> ${call.response.hint}:`,
    `            return self.${snakeCase(op.command)}(`,
    ...forwarded.map((arg) => `                ${arg},`),
    "            )",
    "",
    "        return paginate(page)",
  ];
}

/** The class that holds one instance of each resource class. */
export function resourcesClass(api) {
  const lines = [
    "class Resources:",
    '    """Every resource of the API, each with a method per operation."""',
    "",
  ];
  for (const resource of api) lines.push(`    ${snakeCase(resource.name)}: ${resourceClassName(resource)}`);
  lines.push("", "    def __init__(self, transport: Transport) -> None:");
  for (const resource of api) {
    lines.push(`        self.${snakeCase(resource.name)} = ${resourceClassName(resource)}(transport)`);
  }
  lines.push("", "");
  return lines;
}

/** Where each operation of the API lives in this SDK, by operationId. */
export function operationIndex(api) {
  const lines = [
    "OPERATIONS: Dict[str, Dict[str, Optional[str]]] = {",
    "    # operationId: where the operation lives in this SDK",
  ];
  for (const resource of api) {
    for (const op of resource.operations) {
      const entries = [
        `"resource": ${str(snakeCase(resource.name))}`,
        `"method": ${str(snakeCase(op.command))}`,
        `"iterator": ${op.iteratorCommand ? str(snakeCase(op.iteratorCommand)) : "None"}`,
        `"http_method": ${str(op.method)}`,
        `"path": ${str(op.path)}`,
      ];
      lines.push(`    ${str(op.operationId)}: {${entries.join(", ")}},`);
    }
  }
  lines.push("}", "", "");
  return lines;
}

/** The operation's documentation, with an `Args:` paragraph for the keywords that have a description. */
function methodDoc(op, call) {
  const documented = call.keywords.filter((keyword) => keyword.description);
  const args = ["Args:", ...documented.map((keyword) => `    ${keyword.name}: ${keyword.description}`)];
  return operationDoc(op, documented.length > 0 ? [args.join("\n")] : []);
}
