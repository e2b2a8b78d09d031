// Produces src/api.generated.ts from the OpenAPI document: one type per schema, one class per resource
// with a method per operation (and an async iterator per paginated one), and the operation index.
import { camelCase, describeApi, resourceClassName } from "../../scripts/openapi-model.mjs";
import { operationTypes, resourceClass } from "./resource-classes.mjs";
import { typeDeclaration, typeName } from "./typescript-types.mjs";

export const outputPath = "sdks/typescript/src/api.generated.ts";

/** @returns {Record<string, string>} file path (from the repository root) → content */
export function generate(document) {
  // The web application signs in with this SDK: the browser's session operations are in it.
  const api = describeApi(document, { browserSession: true });
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
        op.iteratorCommand ? `iterator: ${JSON.stringify(camelCase(op.iteratorCommand))}` : undefined,
        `httpMethod: ${JSON.stringify(op.method)}`,
        `path: ${JSON.stringify(op.path)}`,
      ].filter(Boolean);
      out.push(`  ${op.operationId}: { ${fields.join(", ")} },`);
    }
  }
  out.push("} as const;", "");
  return { [outputPath]: `${out.join("\n")}` };
}
