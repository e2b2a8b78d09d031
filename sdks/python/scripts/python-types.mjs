// The Python types of the API's schemas, named once each: on the response side a Model subclass per
// object (attribute access in snake_case), on the request side a TypedDict per object keyed by the wire
// names, and an alias, the same on both sides, for a component with no object inside.
import { pascalCase, refName, resolveRef } from "../../scripts/openapi-model.mjs";
import {
  isNull,
  isObjectWithProperties,
  literal,
  optional,
  pythonName,
  SCALAR_HINTS,
  singular,
  str,
  unionHint,
  variantSuffix,
  variantsOf,
} from "./python-syntax.mjs";

/** Methods of Model that a field must not hide. */
const MODEL_MEMBERS = new Set(["to_dict"]);

export class PythonTypes {
  constructor(document) {
    this.document = document;
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

  /** The variants of a union, nested unions flattened. */
  flatVariants(schema) {
    const variants = variantsOf(schema);
    if (!variants) return undefined;
    return variants.flatMap((variant) => this.flatVariants(variant) ?? [variant]);
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
    const scalar = SCALAR_HINTS.get(schema.type);
    if (scalar) return { hint: scalar };
    if (schema.type === "array") {
      const item = this.output(schema.items, singular(hint));
      return item.model && !item.list
        ? { hint: `List[${item.hint}]`, model: item.model, list: true }
        : { hint: `List[${item.hint}]` };
    }
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
      const inner = values && typeof values === "object" ? this.output(values, `${hint}Value`) : undefined;
      // A record of objects (scores by name): each value is built as its model, as a list's items are.
      return inner?.model && !inner.list && !inner.map
        ? { hint: `Dict[str, ${inner.hint}]`, model: inner.model, map: true }
        : { hint: `Dict[str, ${inner?.hint ?? "Any"}]` };
    }
    return { hint: "Any" };
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
        map: type.map === true,
        ...describe(property),
      });
    }
    return name;
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
    const scalar = SCALAR_HINTS.get(schema.type);
    if (scalar) return scalar;
    if (schema.type === "array") return `List[${this.input(schema.items, singular(hint))}]`;
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
}

function describe(schema) {
  return schema?.description ? { description: schema.description } : {};
}
