// The declarations of the Python types, in the order the module needs them: the Model subclasses, the
// TypedDicts and their aliases, then the shared aliases, each after the aliases its value names.
import { docstring, docText, PYTHON_KEYWORDS, str } from "./python-syntax.mjs";

/** @param {import("./python-types.mjs").PythonTypes} types every type the resources named */
export function typeDeclarations(types) {
  const aliasLines = dependencyOrder(types.aliases).flatMap(([name, value, description]) => [
    `${name} = ${value}`,
    ...(description ? [`"""${docText(description)}"""`] : []),
    "",
  ]);
  return [
    ...byName(types.models).flatMap(modelClass),
    ...byName(types.params).flatMap(typedDict),
    ...types.paramAliases.flatMap(([name, value]) => [`${name} = ${value}`, "", ""]),
    ...aliasLines,
  ];
}

/** The names of every declared type, for `__all__`. */
export function declaredNames(types) {
  return [
    ...types.aliases.map(([name]) => name),
    ...types.models.map((model) => model.name),
    ...types.params.map((param) => param.name),
    ...types.paramAliases.map(([name]) => name),
  ];
}

const byName = (list) => [...list].sort((a, b) => a.name.localeCompare(b.name));

function modelClass(model) {
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
      `        ${str(field.attribute)}: (${str(field.wire)}, ${model}, ${field.map ? str("map") : field.list ? "True" : "False"}),`,
    );
  }
  lines.push("    }", "", "");
  return lines;
}

function typedDict(param) {
  const identifiers = param.fields.every(
    (field) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(field.wire) && !PYTHON_KEYWORDS.has(field.wire),
  );
  const doc = docstring(param.description ?? `The \`${param.name}\` request object, keyed as sent.`, "    ");
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

/** Aliases in an order where each comes after the aliases its value names (assignments run at import). */
function dependencyOrder(aliases) {
  const named = new Map(aliases.map((alias) => [alias[0], alias]));
  const ordered = [];
  const visiting = new Set();
  const visit = (alias) => {
    if (ordered.includes(alias) || visiting.has(alias)) return;
    visiting.add(alias);
    for (const [name, other] of named) {
      if (other !== alias && new RegExp(`\\b${name}\\b`).test(alias[1])) visit(other);
    }
    ordered.push(alias);
  };
  for (const alias of aliases) visit(alias);
  return ordered;
}
