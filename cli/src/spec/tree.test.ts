import { describe, expect, it } from "vitest";
import committed from "../../openapi.json" with { type: "json" };
import { prepareRequest } from "../http/request";
import { buildProgram } from "../program";
import type { Input } from "./command-tree";
import type { JsonSchema } from "./json-schema";
import { buildTree, type OpenApiDocument } from "./tree";

/** A made-up API: nothing in the CLI knows of widgets. */
function madeUp(): OpenApiDocument {
  const json = (schema: JsonSchema) => ({ content: { "application/json": { schema } } });
  return {
    info: { title: "Made-up API", version: "9.9.9" },
    tags: [{ name: "widgets", description: "Widgets of a project" }],
    security: [{ ApiKeyAuth: [] }],
    paths: {
      "/v1/projects/{projectSlug}/widgets": {
        get: {
          operationId: "listWidgets",
          tags: ["widgets"],
          summary: "List widgets",
          "x-svc-paginated": true,
          parameters: [
            { name: "projectSlug", in: "path", required: true, schema: { type: "string" } },
            { name: "limit", in: "query", schema: { type: "integer", default: 50, maximum: 200 } },
            { name: "colour", in: "query", schema: { type: "string", enum: ["red", "blue"] } },
          ],
          responses: { "200": { description: "ok", ...json({ type: "object" }) } },
        },
        post: {
          operationId: "createWidget",
          tags: ["widgets"],
          summary: "Create a widget",
          parameters: [
            { name: "projectSlug", in: "path", required: true, schema: { type: "string" } },
            { $ref: "#/components/parameters/IdempotencyKey", name: "", in: "header" },
          ],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: {
                    displayName: { type: "string", description: "Shown to people" },
                    spec: {},
                    sizeCm: { type: "number" },
                    json: { type: "string" },
                  },
                  required: ["displayName"],
                },
              },
            },
          },
          responses: { "201": { description: "created", ...json({ $ref: "#/components/schemas/Widget" }) } },
        },
      },
      "/v1/widgets/{widgetId}/polish": {
        post: {
          operationId: "polishWidget",
          tags: ["widgets"],
          "x-svc-command": "polish",
          parameters: [
            { name: "widgetId", in: "path", required: true, schema: { type: "string" } },
            { name: "If-Match", in: "header", schema: { type: "string" } },
          ],
          responses: { "204": { description: "polished" } },
        },
      },
    },
    components: {
      schemas: { Widget: { type: "object", properties: { id: { type: "string" } } } },
      parameters: {
        IdempotencyKey: { name: "Idempotency-Key", in: "header", schema: { type: "string" } },
      },
      securitySchemes: {
        ApiKeyAuth: { type: "http", scheme: "bearer", description: "An API key" },
        SessionCookie: { type: "apiKey", description: "A browser session: not for a command line" },
      },
    },
  };
}

const flags = (inputs: Input[]) =>
  inputs.map((input) => ({ flag: input.flag, location: input.location, kind: input.kind }));

describe("buildTree", () => {
  it("makes a resource of a new tag and a command of each new operation", () => {
    const tree = buildTree(madeUp());
    expect(tree.title).toBe("Made-up API");
    expect(tree.resources.map((resource) => resource.name)).toEqual(["widgets"]);
    const widgets = tree.resources[0];
    expect(widgets?.description).toBe("Widgets of a project");
    expect(widgets?.commands.map((command) => command.name)).toEqual([
      "create-widget",
      "list-widgets",
      "polish",
    ]);
    expect(tree.schemes).toEqual([{ name: "ApiKeyAuth", description: "An API key", env: "SVC_API_KEY" }]);
  });

  it("gives path, query, header and body inputs their flags, kinds and constraints", () => {
    const [create, list, polish] = buildTree(madeUp()).resources[0]?.commands ?? [];
    expect(list).toMatchObject({ method: "GET", paginated: true, security: ["ApiKeyAuth"] });
    expect(flags(list?.inputs ?? [])).toEqual([
      { flag: "project-slug", location: "path", kind: "string" },
      { flag: "limit", location: "query", kind: "integer" },
      { flag: "colour", location: "query", kind: "string" },
    ]);
    expect(list?.inputs[1]).toMatchObject({ required: false, default: 50 });
    expect(list?.inputs[2]?.enum).toEqual(["red", "blue"]);

    expect(create).toMatchObject({ method: "POST", path: "/v1/projects/{projectSlug}/widgets" });
    expect(create?.output.status).toBe(201);
    // The Idempotency-Key header is the CLI's own; a body field named like a CLI flag is renamed.
    expect(flags(create?.inputs ?? [])).toEqual([
      { flag: "project-slug", location: "path", kind: "string" },
      { flag: "display-name", location: "body", kind: "string" },
      { flag: "spec", location: "body", kind: "json" },
      { flag: "size-cm", location: "body", kind: "number" },
      { flag: "body-json", location: "body", kind: "string" },
    ]);
    expect(create?.inputs.find((input) => input.flag === "display-name")).toMatchObject({
      required: true,
      description: "Shown to people",
    });
    expect(create?.inputs.find((input) => input.flag === "spec")?.acceptsString).toBe(true);

    expect(polish).toMatchObject({ operationId: "polishWidget", output: { status: 204 }, body: null });
    expect(flags(polish?.inputs ?? [])).toEqual([
      { flag: "widget-id", location: "path", kind: "string" },
      { flag: "if-match", location: "header", kind: "string" },
    ]);
  });

  it("turns the new command's flags into its request, with no code of its own", async () => {
    const tree = buildTree(madeUp());
    const calls: { name: string; url: string; body: unknown; headers: Record<string, string> }[] = [];
    const program = buildProgram(
      tree,
      {
        api: async (command, values, json) => {
          const request = prepareRequest(tree, command, {
            values,
            json,
            baseUrl: "http://api.test",
            projectSlug: undefined,
            readStdin: () => "",
          });
          calls.push({
            name: command.name,
            url: request.url,
            body: request.body === undefined ? undefined : JSON.parse(request.body),
            headers: request.headers,
          });
        },
        local: async () => undefined,
      },
      { resource: "widgets" },
      { outputError: () => undefined },
    );
    await program.parseAsync(
      [
        "widgets",
        "create-widget",
        "--project-slug",
        "p1",
        "--display-name",
        "Gear",
        "--spec",
        '{"teeth":12}',
        "--size-cm",
        "2.5",
      ],
      { from: "user" },
    );
    await program.parseAsync(["widgets", "polish", "--widget-id", "w 1", "--if-match", "3"], {
      from: "user",
    });
    expect(calls[0]).toMatchObject({
      name: "create-widget",
      url: "http://api.test/v1/projects/p1/widgets",
      body: { displayName: "Gear", spec: { teeth: 12 }, sizeCm: 2.5 },
    });
    expect(calls[0]?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(calls[1]).toMatchObject({ name: "polish", url: "http://api.test/v1/widgets/w%201/polish" });
    expect(calls[1]?.headers["if-match"]).toBe("3");
  });

  it("adds a command for an operation added to the committed document", () => {
    const doc = structuredClone(committed) as unknown as OpenApiDocument;
    const before = buildTree(doc).resources.find((resource) => resource.name === "datasets");
    doc.paths["/v1/projects/{projectSlug}/datasets/{datasetSlug}/freeze"] = {
      post: {
        ...madeUp().paths["/v1/widgets/{widgetId}/polish"]?.post,
        operationId: "freezeDataset",
        tags: ["datasets"],
        "x-svc-command": "freeze",
      } as never,
    };
    const after = buildTree(doc).resources.find((resource) => resource.name === "datasets");
    expect(after?.commands.length).toBe((before?.commands.length ?? 0) + 1);
    expect(after?.commands.find((command) => command.name === "freeze")?.operationId).toBe("freezeDataset");
  });

  it.each(["auth", "completion", "man", "generate-skills"])(
    "fails loudly when an API tag is the local command %s",
    (tag) => {
      const doc = madeUp();
      const polish = doc.paths["/v1/widgets/{widgetId}/polish"]?.post;
      if (polish) polish.tags = [tag];
      expect(() => buildTree(doc)).toThrow(`the API tag "${tag}" (operation polishWidget)`);
    },
  );

  it("fails loudly when two operations would be the same command", () => {
    const doc = madeUp();
    const polish = doc.paths["/v1/widgets/{widgetId}/polish"]?.post;
    if (polish) polish["x-svc-command"] = "list-widgets";
    expect(() => buildTree(doc)).toThrow(
      "operations listWidgets and polishWidget would both be `svc widgets list-widgets`",
    );
  });

  it("builds the committed document", () => {
    expect(() => buildTree(committed as unknown as OpenApiDocument)).not.toThrow();
  });

  it("takes an upload's body from --file only, though JSON is one of the formats it accepts", () => {
    const tree = buildTree(committed as unknown as OpenApiDocument);
    const upload = tree.resources
      .flatMap((resource) => resource.commands)
      .find((command) => command.operationId === "importDatasetFile");
    expect(upload?.upload).toContain("application/json");
    expect(upload?.body).toBeNull();
    expect(upload?.inputs.map((input) => input.flag)).toEqual(
      expect.arrayContaining(["file", "file-format"]),
    );
    expect(upload?.inputs.filter((input) => input.location === "body")).toEqual([]);
  });
});
