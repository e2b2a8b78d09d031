// Produces svc/_generated.py from the OpenAPI document: a model class per response object (attribute
// access in snake_case), a TypedDict per request object, and one class per resource with a method per
// operation and an iterator per paginated one.
import {
  describeApi,
  headerOptionName,
  iteratorCommand,
  pascalCase,
  refName,
  resolveRef,
  snakeCase,
} from "../../scripts/openapi-model.mjs";

export const outputPath = "sdks/python/svc/_generated.py";

const PYTHON_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);
/** Keyword arguments every method has; a field with one of these names gets a trailing underscore. */
const CALL_OPTIONS = ["timeout", "max_retries", "idempotency_key", "request_id", "headers"];
/** Methods of Model that a field must not hide. */
const MODEL_MEMBERS = new Set(["to_dict"]);

/** A Python identifier for a wire name: snake_case, with `_` after a keyword or a taken name. */
function pythonName(wire, taken = new Set()) {
  let name = snakeCase(wire) || "field";
  if (/^[0-9]/.test(name)) name = `_${name}`;
  while (PYTHON_KEYWORDS.has(name) || taken.has(name)) name = `${name}_`;
  return name;
}

const str = (text) => JSON.stringify(text);
const isObjectWithProperties = (schema) =>
  schema && typeof schema === "object" && schema.properties && Object.keys(schema.properties).length > 0;
const variantsOf = (schema) => schema?.anyOf ?? schema?.oneOf;
const isNull = (schema) => schema?.type === "null";

/** @returns {Record<string, string>} file path (from the repository root) → content */
export function generate(document) {
  return { [outputPath]: new PythonModule(document).render() };
}

class PythonModule {
  constructor(document) {
    this.document = document;
    this.api = describeApi(document);
    this.components = document.components?.schemas ?? {};
    this.taken = new Set(["Model", "Unset", "UNSET", "Transport", "CallOptions", "Cell", "Resources"]);
    /** Output side: component name → Python name; input side: component name → Python name. */
    this.outputNames = new Map();
    this.inputNames = new Map();
    this.aliases = [];
    this.models = [];
    this.params = [];
    this.paramAliases = [];
    /** Inline schemas already turned into a model or a TypedDict, by identity. */
    this.seenOutput = new Map();
    this.seenInput = new Map();
    this.inProgress = new Set();
  }

  claim(wanted) {
    let name = wanted;
    for (let i = 2; this.taken.has(name); i++) name = `${wanted}${i}`;
    this.taken.add(name);
    return name;
  }

  render() {
    const resources = this.api.map((resource) => this.resourceClass(resource));
    const head = [
      "# Generated from shared/contracts/openapi.json by sdks/scripts/generate.mjs; do not edit.",
      "# Regenerate with `node sdks/scripts/generate.mjs` after `npm run openapi`.",
      "from __future__ import annotations",
      "",
      "from typing import Any, Dict, Iterator, List, Literal, Mapping, Optional, TypedDict, Union",
      "",
      "from ._models import UNSET, Model, Unset, drop_unset",
      "from ._pagination import paginate",
      "from ._transport import CallOptions, Transport, path_segment",
      "",
      "Cell = Any",
      '"""A cell: any JSON value (string, number, boolean, array, object or None)."""',
      "",
      "",
    ];
    const aliasLines = dependencyOrder(this.aliases).flatMap(([name, value, description]) => [
      `${name} = ${value}`,
      ...(description ? [`"""${docText(description)}"""`] : []),
      "",
    ]);
    const exported = [
      "Cell",
      ...this.aliases.map(([name]) => name),
      ...this.models.map((model) => model.name),
      ...this.params.map((param) => param.name),
      ...this.paramAliases.map(([name]) => name),
      ...this.api.map((resource) => resourceClassName(resource)),
      "Resources",
      "OPERATIONS",
    ];
    const lines = [
      ...head,
      ...byName(this.models).flatMap((model) => this.renderModel(model)),
      ...byName(this.params).flatMap((param) => this.renderParam(param)),
      ...this.paramAliases.flatMap(([name, value]) => [`${name} = ${value}`, "", ""]),
      ...aliasLines,
      "",
      ...resources.flat(),
      ...this.renderResources(),
      ...this.renderOperations(),
      "__all__ = [",
      ...[...new Set(exported)].sort().map((name) => `    ${str(name)},`),
      "]",
      "",
    ];
    return lines.join("\n").replace(/\n{4,}/g, "\n\n\n");
  }

  /** The variants of a union, nested unions flattened. */
  flatVariants(schema) {
    const variants = variantsOf(schema);
    if (!variants) return undefined;
    return variants.flatMap((variant) => this.flatVariants(variant) ?? [variant]);
  }

  isObjectUnion(schema) {
    const variants = this.flatVariants(schema)?.filter((variant) => !isNull(variant));
    return (
      variants !== undefined &&
      variants.length > 1 &&
      variants.every((variant) => isObjectWithProperties(resolveRef(this.document, variant)))
    );
  }

  /** Whether a schema has an object with named properties anywhere inside it. */
  containsObject(schema, seen = new Set()) {
    if (!schema || typeof schema !== "object" || seen.has(schema)) return false;
    seen.add(schema);
    const ref = refName(schema);
    if (ref) return this.containsObject(this.components[ref], seen);
    if (isObjectWithProperties(schema)) return true;
    const inner = [
      ...(schema.anyOf ?? []),
      ...(schema.oneOf ?? []),
      ...(schema.allOf ?? []),
      schema.items,
      typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined,
    ];
    return inner.some((part) => this.containsObject(part, seen));
  }

  /** A component without objects inside: one alias, the same on both sides (`Role = Literal[...]`). */
  sharedAlias(component) {
    const existing = this.outputNames.get(component);
    if (existing) return existing;
    if (this.inProgress.has(component)) return "Any";
    this.inProgress.add(component);
    const schema = this.components[component];
    const name = this.claim(pascalCase(component));
    this.aliases.push([name, this.output(schema, name).hint, schema.description]);
    this.outputNames.set(component, name);
    this.inputNames.set(component, name);
    this.inProgress.delete(component);
    return name;
  }

  // ---- the response side: models with attribute access

  /** The type hint of a response schema, and how to wrap its JSON (model name, list of models). */
  output(schema, hint) {
    if (!schema || schema === true || Object.keys(schema).length === 0) return { hint: "Any" };
    const ref = refName(schema);
    if (ref) {
      if (ref === "Cell") return { hint: "Cell" };
      const component = this.components[ref];
      if (!component) return { hint: "Any" };
      if (isObjectWithProperties(component)) {
        const name = this.outputModel(ref);
        return { hint: name, model: name };
      }
      if (!this.containsObject(component)) return { hint: this.sharedAlias(ref) };
      return this.output(component, pascalCase(ref));
    }
    const variants = this.flatVariants(schema);
    if (variants) return this.outputUnion(variants, hint);
    if (Array.isArray(schema.type)) {
      return this.outputUnion(
        schema.type.map((type) => ({ ...schema, type })),
        hint,
      );
    }
    if (schema.const !== undefined || Array.isArray(schema.enum)) return { hint: literal(schema) };
    switch (schema.type) {
      case "string":
        return { hint: "str" };
      case "integer":
        return { hint: "int" };
      case "number":
        return { hint: "float" };
      case "boolean":
        return { hint: "bool" };
      case "null":
        return { hint: "None" };
      case "array": {
        const item = this.output(schema.items, singular(hint));
        return item.model && !item.list
          ? { hint: `List[${item.hint}]`, model: item.model, list: true }
          : { hint: `List[${item.hint}]` };
      }
      default: {
        if (isObjectWithProperties(schema)) {
          const known = this.seenOutput.get(schema);
          if (known) return known;
          const name = this.claim(hint);
          const result = { hint: name, model: name };
          this.seenOutput.set(schema, result);
          this.defineModel(name, schema);
          return result;
        }
        if (schema.type === "object" || schema.additionalProperties !== undefined) {
          const values = schema.additionalProperties;
          const inner =
            values && typeof values === "object" ? this.output(values, `${hint}Value`).hint : "Any";
          return { hint: `Dict[str, ${inner}]` };
        }
        return { hint: "Any" };
      }
    }
  }

  outputUnion(variants, hint) {
    const nullable = variants.some(isNull);
    const rest = variants.filter((variant) => !isNull(variant));
    if (rest.length === 1) {
      const only = this.output(rest[0], hint);
      return nullable ? { ...only, hint: optional(only.hint) } : only;
    }
    if (
      rest.length > 1 &&
      rest.every((variant) => isObjectWithProperties(resolveRef(this.document, variant)))
    ) {
      return { hint: nullable ? "Optional[Model]" : "Model", model: "Model" };
    }
    if (rest.some((variant) => this.containsObject(variant))) return { hint: "Any" };
    const hints = rest.map((variant, i) => this.output(variant, `${hint}${i + 1}`).hint);
    const merged = unionHint(hints);
    return { hint: nullable ? optional(merged) : merged };
  }

  outputModel(component) {
    const existing = this.outputNames.get(component);
    if (existing) return existing;
    const name = this.claim(pascalCase(component));
    this.outputNames.set(component, name);
    this.defineModel(name, this.components[component]);
    return name;
  }

  defineModel(name, schema) {
    const model = { name, description: schema.description, fields: [] };
    this.models.push(model);
    const taken = new Set(MODEL_MEMBERS);
    const required = new Set(schema.required ?? []);
    for (const [wire, property] of Object.entries(schema.properties)) {
      const attribute = pythonName(wire, taken);
      taken.add(attribute);
      const type = this.output(property, `${name}${pascalCase(wire)}`);
      const hint = required.has(wire) ? type.hint : optional(type.hint);
      model.fields.push({
        attribute,
        wire,
        hint,
        model: type.model,
        list: type.list === true,
        ...describe(property),
      });
    }
    return name;
  }

  renderModel(model) {
    const lines = [`class ${model.name}(Model):`];
    lines.push(...docstring(model.description ?? `The \`${model.name}\` object of the API.`, "    "));
    for (const field of model.fields) {
      lines.push(`    ${field.attribute}: ${field.hint}`);
      if (field.description) lines.push(`    """${docText(field.description)}"""`);
    }
    lines.push("", "    _svc_fields = {");
    for (const field of model.fields) {
      const model = field.model ? str(field.model) : "None";
      lines.push(
        `        ${str(field.attribute)}: (${str(field.wire)}, ${model}, ${field.list ? "True" : "False"}),`,
      );
    }
    lines.push("    }", "", "");
    return lines;
  }

  // ---- the request side: TypedDicts keyed by the wire names

  /** The type hint of a request schema; objects become TypedDicts named after `hint`. */
  input(schema, hint) {
    if (!schema || schema === true || Object.keys(schema).length === 0) return "Any";
    const ref = refName(schema);
    if (ref) {
      if (ref === "Cell") return "Cell";
      if (!this.components[ref]) return "Any";
      if (!this.containsObject(this.components[ref])) return this.sharedAlias(ref);
      return this.inputComponent(ref);
    }
    const variants = this.flatVariants(schema);
    if (variants) return this.inputUnion(variants, hint);
    if (Array.isArray(schema.type))
      return this.inputUnion(
        schema.type.map((type) => ({ ...schema, type })),
        hint,
      );
    if (schema.const !== undefined || Array.isArray(schema.enum)) return literal(schema);
    switch (schema.type) {
      case "string":
        return "str";
      case "integer":
        return "int";
      case "number":
        return "float";
      case "boolean":
        return "bool";
      case "null":
        return "None";
      case "array":
        return `List[${this.input(schema.items, singular(hint))}]`;
      default: {
        if (isObjectWithProperties(schema)) {
          const known = this.seenInput.get(schema);
          if (known) return known;
          const name = this.claim(`${hint}Param`);
          this.seenInput.set(schema, name);
          return this.defineParam(name, schema);
        }
        if (schema.type === "object" || schema.additionalProperties !== undefined) {
          const values = schema.additionalProperties;
          const inner = values && typeof values === "object" ? this.input(values, `${hint}Value`) : "Any";
          return `Dict[str, ${inner}]`;
        }
        return "Any";
      }
    }
  }

  inputUnion(variants, hint) {
    const nullable = variants.some(isNull);
    const rest = variants.filter((variant) => !isNull(variant));
    const hints = rest.map((variant, i) => this.input(variant, `${hint}${variantSuffix(variant, i)}`));
    const merged = unionHint(hints);
    return nullable ? optional(merged) : merged;
  }

  inputComponent(component) {
    const existing = this.inputNames.get(component);
    if (existing) return existing;
    const schema = this.components[component];
    const base = pascalCase(component).replace(/(.)Input$/, "$1");
    const name = this.claim(`${base}Param`);
    this.inputNames.set(component, name);
    if (isObjectWithProperties(schema)) {
      this.defineParam(name, schema);
      return name;
    }
    const variants = this.flatVariants(schema);
    if (variants) {
      const nullable = variants.some(isNull);
      const hints = variants
        .filter((variant) => !isNull(variant))
        .map((variant, i) => this.input(variant, `${base}${variantSuffix(variant, i)}`));
      const union = `Union[${[...new Set(hints)].map(str).join(", ")}]`;
      this.paramAliases.push([name, nullable ? `Optional[${union}]` : union]);
    } else {
      this.paramAliases.push([name, str(this.input(schema, base))]);
    }
    return name;
  }

  defineParam(name, schema) {
    const param = { name, description: schema.description, fields: [] };
    this.params.push(param);
    const required = new Set(schema.required ?? []);
    for (const [wire, property] of Object.entries(schema.properties)) {
      param.fields.push({
        wire,
        hint: this.input(property, `${name.replace(/Param$/, "")}${pascalCase(wire)}`),
        required: required.has(wire),
        ...describe(property),
      });
    }
    return name;
  }

  renderParam(param) {
    const identifiers = param.fields.every(
      (field) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(field.wire) && !PYTHON_KEYWORDS.has(field.wire),
    );
    const doc = docstring(
      param.description ?? `The \`${param.name}\` request object, keyed as sent.`,
      "    ",
    );
    if (!identifiers) {
      const entries = param.fields.map((field) => `${str(field.wire)}: ${str(field.hint)}`);
      return [`${param.name} = TypedDict(${str(param.name)}, {${entries.join(", ")}}, total=False)`, "", ""];
    }
    const required = param.fields.filter((field) => field.required);
    const optionalFields = param.fields.filter((field) => !field.required);
    const body = (fields) =>
      fields.flatMap((field) => [
        `    ${field.wire}: ${field.hint}`,
        ...(field.description ? [`    """${docText(field.description)}"""`] : []),
      ]);
    if (required.length === 0)
      return [`class ${param.name}(TypedDict, total=False):`, ...doc, ...body(optionalFields), "", ""];
    if (optionalFields.length === 0)
      return [`class ${param.name}(TypedDict):`, ...doc, ...body(required), "", ""];
    const base = `_${param.name}Required`;
    return [
      `class ${base}(TypedDict):`,
      ...body(required),
      "",
      "",
      `class ${param.name}(${base}, total=False):`,
      ...doc,
      ...body(optionalFields),
      "",
      "",
    ];
  }

  // ---- resources

  resourceClass(resource) {
    const tag = (this.document.tags ?? []).find((candidate) => candidate.name === resource.name);
    const lines = [`class ${resourceClassName(resource)}:`];
    lines.push(...docstring(tag?.description ?? `The ${resource.name} operations.`, "    "));
    lines.push(
      "",
      "    def __init__(self, transport: Transport) -> None:",
      "        self._transport = transport",
    );
    for (const op of resource.operations) {
      const call = this.callShape(op);
      lines.push("", ...this.method(op, call));
      if (op.paginated) lines.push("", ...this.iterator(op, call));
    }
    lines.push("", "");
    return lines;
  }

  /** Arguments of one operation: positional path parameters, then keywords for body, query and headers. */
  callShape(op) {
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
      hint: this.input(parameter.schema, `${hintBase}${pascalCase(parameter.name)}`),
    }));
    const keyword = (wire, schema, isRequired, location, description) => ({
      name: claim(wire),
      wire,
      hint: this.input(schema, `${hintBase}${pascalCase(wire)}`),
      required: isRequired,
      location,
      description,
    });
    const keywords = [];
    let rawBody;
    if (op.body) {
      const schema = resolveRef(this.document, op.body.schema);
      if (isObjectWithProperties(schema) && !variantsOf(schema)) {
        const required = new Set(schema.required ?? []);
        for (const [wire, property] of Object.entries(schema.properties)) {
          keywords.push(keyword(wire, property, required.has(wire), "body", property?.description));
        }
      } else {
        rawBody = { name: claim("body"), hint: this.input(op.body.schema, `${hintBase}Body`) };
      }
    }
    for (const parameter of op.queryParams) {
      keywords.push(
        keyword(
          parameter.name,
          withBooleans(parameter.schema),
          parameter.required,
          "query",
          parameter.description,
        ),
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
        : this.output(op.response, `${hintBase}Response`);
    const item =
      op.paginated && response.model
        ? this.models
            .find((model) => model.name === response.model)
            ?.fields.find((field) => field.wire === "items")
        : undefined;
    return { path, keywords, rawBody, response, item };
  }

  signature(call, { skip = [], withIdempotency = true } = {}) {
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

  method(op, call) {
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
      ...this.signature(call).map((arg) => `        ${arg},`),
      `    ) -> ${returns}:`,
      ...docstring(methodDoc(op, call), "        "),
      `        ${returns === "None" ? "" : "return "}self._transport.request(`,
      ...request.map((arg) => `            ${arg},`),
      "        )",
    ];
  }

  iterator(op, call) {
    const cursor = call.keywords.find(
      (keyword) => keyword.wire === "cursor" && keyword.location !== "header",
    );
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
      `    def ${snakeCase(iteratorCommand(op.command))}(`,
      ...this.signature(call, { skip: [cursor], withIdempotency: false }).map((arg) => `        ${arg},`),
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

  renderResources() {
    const lines = [
      "class Resources:",
      '    """Every resource of the API, each with a method per operation."""',
      "",
    ];
    for (const resource of this.api)
      lines.push(`    ${snakeCase(resource.name)}: ${resourceClassName(resource)}`);
    lines.push("", "    def __init__(self, transport: Transport) -> None:");
    for (const resource of this.api) {
      lines.push(`        self.${snakeCase(resource.name)} = ${resourceClassName(resource)}(transport)`);
    }
    lines.push("", "");
    return lines;
  }

  renderOperations() {
    const lines = [
      "OPERATIONS: Dict[str, Dict[str, Optional[str]]] = {",
      "    # operationId: where the operation lives in this SDK",
    ];
    for (const resource of this.api) {
      for (const op of resource.operations) {
        const entries = [
          `"resource": ${str(snakeCase(resource.name))}`,
          `"method": ${str(snakeCase(op.command))}`,
          `"iterator": ${op.paginated ? str(snakeCase(iteratorCommand(op.command))) : "None"}`,
          `"http_method": ${str(op.method)}`,
          `"path": ${str(op.path)}`,
        ];
        lines.push(`    ${str(op.operationId)}: {${entries.join(", ")}},`);
      }
    }
    lines.push("}", "", "");
    return lines;
  }
}

const byName = (list) => [...list].sort((a, b) => a.name.localeCompare(b.name));
const resourceClassName = (resource) => `${pascalCase(resource.name)}Resource`;

function describe(schema) {
  return schema?.description ? { description: schema.description } : {};
}

function literal(schema) {
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

function optional(hint) {
  if (hint === "Any" || hint === "Cell" || hint === "None" || hint.startsWith("Optional[")) return hint;
  return `Optional[${hint}]`;
}

function unionHint(hints) {
  const unique = [...new Set(hints)];
  if (unique.includes("Any") || unique.includes("Cell")) return unique.includes("Cell") ? "Cell" : "Any";
  return unique.length === 1 ? unique[0] : `Union[${unique.join(", ")}]`;
}

/**
 * The name part of a union variant: its constant discriminators (`field: "traceId", op: ["eq"]` →
 * `TraceIdEq`), else its position.
 */
function variantSuffix(variant, index) {
  const constants = Object.values(variant?.properties ?? {}).flatMap((property) => {
    if (typeof property?.const === "string") return [property.const];
    if (Array.isArray(property?.enum) && property.enum.length === 1 && typeof property.enum[0] === "string") {
      return [property.enum[0]];
    }
    return [];
  });
  return constants.length > 0 ? constants.map(pascalCase).join("") : String(index + 1);
}

function singular(hint) {
  return hint.endsWith("s") && !hint.endsWith("ss") ? hint.slice(0, -1) : `${hint}Item`;
}

/** A query flag documented as the strings "true"/"false" also takes a bool. */
function withBooleans(schema) {
  const values = schema?.enum;
  if (Array.isArray(values) && values.length === 2 && values.includes("true") && values.includes("false")) {
    return { anyOf: [{ type: "boolean" }, schema] };
  }
  return schema;
}

function methodDoc(op, call) {
  const paragraphs = [op.summary ? sentence(op.summary) : "", ...op.description.split("\n\n")]
    .map((part) => part.trim())
    .filter(Boolean);
  const documented = call.keywords.filter((keyword) => keyword.description);
  if (documented.length > 0) {
    paragraphs.push(
      ["Args:", ...documented.map((keyword) => `    ${keyword.name}: ${keyword.description}`)].join("\n"),
    );
  }
  paragraphs.push(`\`${op.method} ${op.path}\` (operation \`${op.operationId}\`)`);
  return [...new Set(paragraphs)].join("\n\n");
}

const sentence = (text) => (/[.!?]$/.test(text) ? text : `${text}.`);

function docText(text) {
  return text.replaceAll("\\", "\\\\").replaceAll('"""', '\\"\\"\\"');
}

function docstring(text, indent) {
  const lines = docText(text).split("\n");
  if (lines.length === 1) return [`${indent}"""${lines[0]}"""`];
  return [
    `${indent}"""${lines[0]}`,
    ...lines.slice(1).map((line) => (line ? `${indent}${line}` : "")),
    `${indent}"""`,
  ];
}

/** Aliases in an order where each comes after the aliases its value names (assignments run at import). */
function dependencyOrder(aliases) {
  const byName = new Map(aliases.map((alias) => [alias[0], alias]));
  const ordered = [];
  const visiting = new Set();
  const visit = (alias) => {
    if (ordered.includes(alias) || visiting.has(alias)) return;
    visiting.add(alias);
    for (const [name, other] of byName) {
      if (other !== alias && new RegExp(`\\b${name}\\b`).test(alias[1])) visit(other);
    }
    ordered.push(alias);
  };
  for (const alias of aliases) visit(alias);
  return ordered;
}
