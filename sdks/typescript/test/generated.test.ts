import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate as generatePython } from "../../python/scripts/generate.mjs";
import { documentPath, loadDocument, repoRoot } from "../../scripts/openapi-model.mjs";
import { generate as generateTypeScript, outputPath } from "../scripts/generate.mjs";
import { Client, operations } from "../src/index.js";

type Operation = {
  operationId: string;
  tags: string[];
  "x-svc-paginated": boolean;
  "x-svc-file"?: string;
  "x-svc-events"?: unknown;
};
type Document = { paths: Record<string, Record<string, Operation>> };

const document = JSON.parse(readFileSync(documentPath, "utf8")) as Document;
/**
 * Every JSON operation of the document; files sent or received (x-svc-file) and event streams
 * (x-svc-events: `datasets.watch`) have helpers of their own.
 */
const documented = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([, op]) => op["x-svc-file"] === undefined && op["x-svc-events"] === undefined)
    .map(([method, op]) => ({ ...op, path, method: method.toUpperCase() })),
);

describe("the generated TypeScript SDK", () => {
  it("matches a fresh generation from shared/contracts/openapi.json (run `node sdks/scripts/generate.mjs`)", () => {
    const check = spawnSync(process.execPath, ["sdks/scripts/generate.mjs", "--check", "typescript"], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    expect(check.stdout + check.stderr).toBe("");
    expect(check.status).toBe(0);
    const fresh = generateTypeScript(loadDocument())[outputPath];
    expect(fresh).toBe(readFileSync(join(repoRoot, outputPath), "utf8"));
  });

  it("has a method for every operation of the document, and an iterator for every paginated one", () => {
    const client = new Client({ apiKey: "svc_unused" });
    const index = operations as Record<
      string,
      { resource: string; method: string; iterator?: string; httpMethod: string; path: string }
    >;
    expect(Object.keys(index).sort()).toEqual(documented.map((op) => op.operationId).sort());
    for (const op of documented) {
      const entry = index[op.operationId];
      expect(entry).toMatchObject({ httpMethod: op.method, path: op.path });
      const resource = (client as unknown as Record<string, Record<string, unknown>>)[entry?.resource ?? ""];
      expect(typeof resource?.[entry?.method ?? ""], op.operationId).toBe("function");
      if (op["x-svc-paginated"])
        expect(typeof resource?.[entry?.iterator ?? ""], op.operationId).toBe("function");
    }
  });

  it("names methods after x-svc-command: datasets.updateRow, datasets.listRows, datasets.iterateRows", () => {
    expect(operations.updateDatasetRow).toMatchObject({ resource: "datasets", method: "updateRow" });
    expect(operations.listDatasetRows).toMatchObject({
      resource: "datasets",
      method: "listRows",
      iterator: "iterateRows",
    });
    expect(operations.listDatasetColumns).toMatchObject({ resource: "datasets", method: "listColumns" });
    expect(operations.listProjects).toMatchObject({
      resource: "projects",
      method: "list",
      iterator: "iterate",
    });
  });
});

describe("both generators", () => {
  it("give an operation added to the document a method, types and an iterator, without hand edits", () => {
    const extended = withWidgets(loadDocument() as unknown as Document);
    const typescript = Object.values(generateTypeScript(extended)).join("");
    expect(typescript).toContain("export class WidgetsResource {");
    expect(typescript).toContain("readonly widgets: WidgetsResource;");
    expect(typescript).toContain("listParts(widgetId: string, query?: ListWidgetPartsQuery");
    expect(typescript).toContain("iterateParts(widgetId: string");
    expect(typescript).toContain("export type ListWidgetPartsResponse = {");
    const python = Object.values(generatePython(extended)).join("");
    expect(python).toContain("class WidgetsResource:");
    expect(python).toContain("self.widgets = WidgetsResource(transport)");
    expect(python).toContain("def list_parts(");
    expect(python).toContain("def iterate_parts(");
    expect(python).toContain('"/v1/widgets/{widgetId}/parts"');
  });

  it("refuse two operations of one resource that would share a method name", () => {
    const extended = withWidgets(loadDocument() as unknown as Document);
    const clash = structuredClone(extended.paths["/v1/widgets/{widgetId}/parts"]?.get) as Operation;
    extended.paths["/v1/widgets/{widgetId}/parts"] = {
      ...extended.paths["/v1/widgets/{widgetId}/parts"],
      post: { ...clash, operationId: "listWidgetPartsAgain" },
    };
    expect(() => generateTypeScript(extended)).toThrow(/both need the method "list-parts"/);
  });
});

function withWidgets(base: Document): Document {
  const copy = structuredClone(base);
  copy.paths["/v1/widgets/{widgetId}/parts"] = {
    get: {
      operationId: "listWidgetParts",
      tags: ["widgets"],
      "x-svc-paginated": true,
      "x-svc-command": "list-parts",
      parameters: [
        { name: "widgetId", in: "path", required: true, schema: { type: "string" } },
        { name: "cursor", in: "query", required: false, schema: { type: "string" } },
        { name: "limit", in: "query", required: false, schema: { type: "integer" } },
      ],
      responses: {
        "200": {
          description: "OK",
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  items: {
                    type: "array",
                    items: {
                      type: "object",
                      properties: { partId: { type: "string" } },
                      required: ["partId"],
                    },
                  },
                  nextCursor: { type: ["string", "null"] },
                  hasMore: { type: "boolean" },
                },
                required: ["items", "nextCursor", "hasMore"],
              },
            },
          },
        },
      },
    } as unknown as Operation,
  };
  return copy;
}
