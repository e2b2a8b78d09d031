import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import SwaggerParser from "@apidevtools/swagger-parser";
import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import { errorStatus } from "./errors";
import { buildOpenApiDocument } from "./openapi";
import { defineOperation } from "./operations/define";
import { operationList, operations } from "./operations/index";
import { createProjectBodySchema, projectSchema } from "./schemas/auth";

type Json = Record<string, unknown>;

const committedPath = fileURLToPath(new URL("../openapi.json", import.meta.url));
const document = buildOpenApiDocument();
const operationsOf = (doc: Json) =>
  Object.values(doc.paths as Record<string, Record<string, Json>>).flatMap((item) => Object.values(item));
const byId = new Map(operationsOf(document).map((op) => [op.operationId as string, op]));
const operation = (id: string): Json => {
  const found = byId.get(id);
  if (!found) throw new Error(`operation ${id} is not documented`);
  return found;
};
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe("the OpenAPI document", () => {
  it("matches the committed copy (run `npm run openapi` after changing the operation table)", () => {
    const committed = readFileSync(committedPath, "utf8");
    const fresh = `${JSON.stringify(document, null, 2)}\n`;
    expect(
      committed === fresh,
      "shared/contracts/openapi.json is out of date: run `npm run openapi` and commit the result",
    ).toBe(true);
  });

  it("is a valid OpenAPI 3.1 document for an independent validator", async () => {
    const api = (await SwaggerParser.validate(clone(document) as never)) as Json;
    expect(api.openapi).toBe("3.1.0");
  });

  it("is checked by a validator that does reject a broken document", async () => {
    const broken = clone(document) as { paths: Record<string, Record<string, { parameters: Json[] }>> };
    broken.paths["/v1/projects"]?.get?.parameters.push({ name: "limit", in: "body", schema: {} });
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow();
  });

  it("documents every operation of the table once, with its id, tag, command and method", () => {
    expect(byId.size).toBe(operationList.length);
    for (const op of operationList) {
      const documented = (document.paths as Record<string, Record<string, Json>>)[op.path]?.[
        op.method.toLowerCase()
      ];
      expect(documented?.operationId).toBe(op.operationId);
      expect(documented?.tags).toEqual([op.tag]);
      expect(documented?.["x-svc-command"]).toBe(op.command);
      expect(documented?.["x-svc-paginated"]).toBe(op.paginated);
    }
  });

  it("lists every declared error under its HTTP status", () => {
    const responses = (document.components as Json).responses as Record<string, Json>;
    for (const op of operationList) {
      const documented = operation(op.operationId).responses as Record<string, { $ref: string }>;
      for (const code of op.errors) {
        const ref = documented[String(errorStatus[code])]?.$ref ?? "";
        const response = responses[ref.replace("#/components/responses/", "")] as Json;
        const content = (response.content as Json)["application/json"] as { examples: Json };
        expect(Object.keys(content.examples), `${op.operationId} ${code}`).toContain(code);
      }
    }
  });

  it("offers Idempotency-Key and lists 409 idempotency_key_reused on every POST, PATCH and DELETE that writes", () => {
    const writes = operationList.filter(
      (op) => op.method !== "GET" && op.operationId !== "listTraces" && !op.browserSession,
    );
    expect(writes.length).toBeGreaterThan(20);
    for (const op of writes) {
      expect(op.errors, op.operationId).toContain("idempotency_key_reused");
      const documented = operation(op.operationId);
      expect(documented.parameters, op.operationId).toContainEqual({
        $ref: "#/components/parameters/IdempotencyKey",
      });
      expect((documented.responses as Record<string, { $ref: string }>)["409"]?.$ref).toMatch(
        /IdempotencyKeyReused/,
      );
    }
  });

  it("offers no Idempotency-Key where nothing is written (reads, the trace list's POST), nor to the browser's session", () => {
    const unkeyed = operationList.filter(
      (o) => o.method === "GET" || o.operationId === "listTraces" || o.browserSession,
    );
    expect(unkeyed.filter((o) => o.method !== "GET").map((o) => o.operationId)).toEqual([
      "createSession",
      "deleteSession",
      "emailSignInLink",
      "listTraces",
    ]);
    for (const op of unkeyed) {
      expect(op.errors, op.operationId).not.toContain("idempotency_key_reused");
      expect(operation(op.operationId).parameters, op.operationId).not.toContainEqual({
        $ref: "#/components/parameters/IdempotencyKey",
      });
    }
  });

  it("documents the success response, with no body for 204", () => {
    for (const op of operationList) {
      const success = (operation(op.operationId).responses as Record<string, Json>)[String(op.successStatus)];
      expect(success, op.operationId).toBeDefined();
      expect("content" in (success as Json)).toBe(op.successStatus !== 204);
    }
  });

  it("describes the row edit's path, header, body and example", () => {
    const op = operation("updateDatasetRow");
    const parameters = op.parameters as Json[];
    expect(parameters.filter((p) => p.in === "path").map((p) => p.name)).toEqual([
      "projectSlug",
      "datasetSlug",
      "rowId",
    ]);
    expect(parameters).toContainEqual(expect.objectContaining({ name: "If-Match", in: "header" }));
    expect(parameters).toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" });
    const media = ((op.requestBody as Json).content as Json)["application/json"] as Json;
    expect(Object.keys((media.schema as Json).properties as Json)).toEqual([
      "input",
      "output",
      "expectedOutput",
      "metadata",
      "custom",
    ]);
    expect(media.examples).toBeDefined();
  });

  it("gives query parameters their constraints and defaults", () => {
    const parameters = operation("listDatasetRows").parameters as Json[];
    const limit = parameters.find((p) => p.name === "limit") as Json;
    expect(limit).toMatchObject({
      in: "query",
      required: false,
      schema: { type: "integer", minimum: 1, maximum: 200, default: 50 },
    });
    const includeRemoved = (operation("listDatasetColumns").parameters as Json[]).find(
      (p) => p.name === "includeRemoved",
    );
    expect(includeRemoved?.schema).toEqual({ type: "string", enum: ["true", "false"], default: "false" });
  });

  it("secures operator routes with the operator token and every other route with an API key", () => {
    for (const op of operationList.filter((o) => !o.browserSession)) {
      const expected = op.access === "operator" ? "OperatorToken" : "ApiKeyAuth";
      expect(operation(op.operationId).security, op.operationId).toEqual([{ [expected]: [] }]);
      expect(operation(op.operationId)["x-svc-access"], op.operationId).toBe(op.access);
    }
  });

  it("marks the browser's session operations, signing in with no credential and the rest with the cookie", () => {
    const marked = Object.fromEntries(
      operationList
        .filter((op) => op.browserSession)
        .map((op) => {
          const documented = operation(op.operationId);
          return [op.operationId, [documented["x-svc-browser-session"], documented.security]];
        }),
    );
    expect(marked).toEqual({
      createSession: ["none", []],
      emailSignInLink: ["none", []],
      getSession: ["cookie", [{ SessionCookie: [] }]],
      deleteSession: ["cookie", [{ SessionCookie: [] }]],
    });
  });

  it("reuses named components for shared entities", () => {
    const response = (operation("getDataset").responses as Record<string, Json>)["200"] as Json;
    expect(((response.content as Json)["application/json"] as Json).schema).toEqual({
      $ref: "#/components/schemas/Dataset",
    });
    const schemas = (document.components as Json).schemas as Json;
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(["Error", "Dataset", "DatasetRow"]));
  });
});

describe("the OpenAPI document's examples", () => {
  const media = (content: unknown) => (content as Json | undefined)?.["application/json"] as Json | undefined;
  const examplesOf = (value: Json | undefined) =>
    Object.entries((value?.examples ?? {}) as Record<string, { value: unknown }>);
  // The document's own schemas, with its components, as an independent JSON Schema validator reads them.
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  const matchesDocument = (schema: unknown, value: unknown) => {
    const validate = ajv.compile({ ...(schema as Json), components: document.components });
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };

  it("gives every operation with a body a request example that the operation accepts", () => {
    for (const op of operationList) {
      if (op.body === null) continue;
      const body = media((operation(op.operationId).requestBody as Json).content);
      const examples = examplesOf(body);
      expect(examples.length, `${op.operationId} has no request example`).toBeGreaterThan(0);
      for (const [name, example] of examples) {
        const parsed = op.body.safeParse(example.value);
        expect(parsed.error?.issues ?? [], `${op.operationId} request example ${name}`).toEqual([]);
        expect(matchesDocument(body?.schema, example.value), `${op.operationId} ${name}`).toEqual([]);
      }
    }
  });

  it("gives every success response with a body an example of what the operation answers", () => {
    for (const op of operationList) {
      const success = (operation(op.operationId).responses as Record<string, Json>)[String(op.successStatus)];
      if (op.file) {
        // A file: its media types, no JSON.
        expect(Object.keys(success?.content ?? {}), op.operationId).toEqual(
          Object.values(op.file.mediaTypes).map((type) => type.split(";")[0]),
        );
        continue;
      }
      if (op.events && op.response) {
        // A stream of events, each one's data a response.
        const stream = (success?.content as Json | undefined)?.["text/event-stream"] as Json | undefined;
        const [[, example] = []] = examplesOf(stream);
        const data = /^data: (.*)$/m.exec(String(example?.value))?.[1];
        expect(op.response.safeParse(JSON.parse(data ?? "null")).error?.issues ?? [], op.operationId).toEqual(
          [],
        );
        continue;
      }
      if (op.successStatus === 204 || op.response === null) {
        expect(success?.content, op.operationId).toBeUndefined();
        continue;
      }
      const response = media(success?.content);
      const examples = examplesOf(response);
      expect(examples.length, `${op.operationId} has no response example`).toBe(1);
      for (const [name, example] of examples) {
        const parsed = op.response.safeParse(example.value);
        expect(parsed.error?.issues ?? [], `${op.operationId} response example ${name}`).toEqual([]);
        expect(matchesDocument(response?.schema, example.value), `${op.operationId} ${name}`).toEqual([]);
      }
    }
  });

  it("is checked against the schemas: an example the API would refuse fails", () => {
    const op = operationList.find((o) => o.operationId === "createProject");
    const body = media((operation("createProject").requestBody as Json).content);
    expect(op?.body?.safeParse({ name: "" }).success).toBe(false);
    expect(matchesDocument(body?.schema, { name: "x", colour: "red" })).not.toEqual([]);
  });

  it("takes hand-chosen examples, header descriptions and file headers from the operation's declaration", () => {
    const edit = operation("updateDatasetRow");
    const declared = operations.updateDatasetRow;
    expect(Object.keys(declared.bodyExamples ?? {})).toEqual(["expectedOutput", "custom"]);
    expect(media((edit.requestBody as Json).content)?.examples).toEqual(declared.bodyExamples);
    const ifMatch = declared.headerDescriptions?.["If-Match"];
    expect(ifMatch).toMatch(/version_mismatch/);
    expect(edit.parameters).toContainEqual(
      expect.objectContaining({ name: "If-Match", description: ifMatch }),
    );

    const fileHeaders = operations.exportDataset.file?.headers ?? {};
    expect(Object.keys(fileHeaders)).toEqual(["X-Svc-Version", "X-Svc-Columns"]);
    const exported = (operation("exportDataset").responses as Record<string, Json>)["200"] as Json;
    expect(exported.headers).toEqual({
      "X-Request-Id": { $ref: "#/components/headers/RequestId" },
      ...Object.fromEntries(
        Object.entries(fileHeaders).map(([name, { description, type }]) => [
          name,
          { description, schema: { type } },
        ]),
      ),
    });
  });

  it("refuses to compile a hand-chosen example its operation's body would not accept", () => {
    const declared = defineOperation({
      operationId: "exampleCheck",
      command: "check",
      method: "POST",
      path: "/v1/check",
      tag: "projects",
      summary: "Check",
      subject: "svc.v1.check",
      access: "member",
      body: createProjectBodySchema,
      // @ts-expect-error: `title` is no field of the body, and `name` is missing.
      bodyExamples: { wrong: { summary: "Wrong", value: { title: "Support bot" } } },
      response: projectSchema,
      successStatus: 201,
    });
    expect(createProjectBodySchema.safeParse(declared.bodyExamples?.wrong?.value).success).toBe(false);
  });

  it("shows a list's example as its last page, with no next cursor", () => {
    const page = media(
      ((operation("listDatasetRows").responses as Record<string, Json>)["200"] as Json).content,
    );
    expect(examplesOf(page)[0]?.[1].value).toMatchObject({ nextCursor: null, hasMore: false });
  });
});

describe("the OpenAPI document's limits and challenges", () => {
  const errorResponse = (op: Json, status: number) => {
    const ref = ((op.responses as Record<string, { $ref?: string }>)[String(status)]?.$ref ?? "").replace(
      "#/components/responses/",
      "",
    );
    return ((document.components as Json).responses as Record<string, Json>)[ref];
  };

  it("promises 413 and 415 on every operation that takes a body, and only there", () => {
    for (const op of operationList) {
      const responses = operation(op.operationId).responses as Record<string, unknown>;
      for (const status of ["413", "415"]) {
        if (op.body || op.upload) expect(responses, `${op.operationId} ${status}`).toHaveProperty(status);
        else expect(responses, `${op.operationId} ${status}`).not.toHaveProperty(status);
      }
    }
  });

  it("answers 429 rate_limited with Retry-After on every operation a credential of an organisation may call", () => {
    for (const op of operationList.filter((o) => o.access !== "operator")) {
      expect(op.errors, op.operationId).toContain("rate_limited");
      const response = errorResponse(operation(op.operationId), 429);
      expect(response?.headers, op.operationId).toMatchObject({
        "Retry-After": { $ref: "#/components/headers/RetryAfter" },
      });
    }
    // The operator token is not limited: no 429 is promised where none can happen.
    for (const op of operationList.filter((o) => o.access === "operator")) {
      expect(op.errors, op.operationId).not.toContain("rate_limited");
      expect(operation(op.operationId).responses, op.operationId).not.toHaveProperty("429");
    }
    const tooMany = errorResponse(operation("updateDatasetRow"), 429) ?? {};
    const example = ((tooMany.content as Json)["application/json"] as Json).examples as Record<
      string,
      { value: Json }
    >;
    expect(example.rate_limited?.value.details).toEqual({
      scope: "key",
      retryAfterSeconds: 1,
      limit: { perSecond: 100, burst: 200 },
    });
  });

  it("documents the bearer challenge on every 401", () => {
    for (const op of operationList) {
      expect(errorResponse(operation(op.operationId), 401)?.headers, op.operationId).toMatchObject({
        "WWW-Authenticate": { $ref: "#/components/headers/WwwAuthenticate" },
      });
    }
  });
});
