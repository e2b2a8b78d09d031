import { randomBytes } from "node:crypto";
import { type Operation, operationList } from "@svc/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { type ErrorBody, expectError, listAll, makeDataset } from "../factories";
import { type Client, client } from "../http";
import { projectForSuite, targets } from "../targets";

/*
 * A sweep of bad input over every operation of the table, generated from the OpenAPI document the
 * gateway serves (itself produced from the table): a route added to the table is swept without a
 * line here, and the sweep fails if it ever covers fewer operations than the table holds.
 */

/**
 * The browser's session operations are served by the gateway's session routes, which take no query
 * string and answer a bad body in words of their own: browser-sessions.test.ts covers them.
 */
const swept = operationList.filter((op) => !op.browserSession);

type Json = Record<string, unknown>;
interface JsonSchema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: unknown;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
}
interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: JsonSchema;
}
interface DocumentedOperation {
  operationId: string;
  parameters: (Parameter | { $ref: string })[];
  requestBody?: { content: { "application/json": { schema: JsonSchema } } };
}

/** One request that breaks one rule, and the `details.issues` paths it must be refused with. */
interface BadRequest {
  label: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Raw request text; undefined sends no body. */
  body: string | undefined;
  /** The issue paths expected, exactly; undefined when the body is not even JSON. */
  issuePaths: string[] | undefined;
}

/**
 * A valid body for every operation that takes one: each bad request starts from it and breaks one
 * thing, so the refusal is about that thing alone. A new operation with a body needs a line here,
 * and the sweep says so.
 */
function validBodies(ids: Ids): Record<string, unknown> {
  return {
    createOrganization: { name: `Sweep org ${ids.suffix}` },
    createApiKey: { name: "sweep", role: "viewer" },
    updateApiKey: { name: "sweep renamed" },
    addMember: { email: `sweep-${ids.suffix}@example.com`, role: "viewer" },
    updateMember: { role: "admin" },
    updateAccountUser: { name: "Sweep" },
    setModelPrice: { model: "sweep-model", inputUsdPerMillionTokens: 1, outputUsdPerMillionTokens: 2 },
    createProject: { name: `Sweep project ${ids.suffix}` },
    updateProject: { name: `Sweep renamed ${ids.suffix}` },
    createDataset: { name: `Sweep set ${ids.suffix}`, description: "made by the sweep" },
    updateDataset: { name: `Sweep set renamed ${ids.suffix}` },
    createDatasetColumn: { name: "sweep column" },
    updateDatasetColumn: { name: "sweep renamed column" },
    reorderDatasetColumns: { order: ["input", "output", "expectedOutput", "metadata", ids.column] },
    insertDatasetRows: { rows: [{ id: "sweep-row", input: "new" }] },
    updateDatasetRow: { output: "edited by the sweep" },
    updateDatasetRows: { edits: [{ rowId: "r0", output: "edited by the sweep" }] },
    deleteDatasetRows: { selection: { mode: "all" } },
    copyDatasetRows: { to: { datasetSlug: ids.dataset }, selection: { mode: "all" } },
    importDatasetRowsFromTraces: { traces: { by: "ids", ids: [ids.traceId] } },
    listTraces: { limit: 10 },
    createExperiment: { name: "sweep run", evaluators: [{ name: "exact", kind: "exact_match" }] },
    updateExperiment: { name: "sweep run renamed" },
    recordExperimentResults: { results: [{ rowId: "r0", output: "sweep" }] },
    recordExperimentScores: { scores: [{ rowId: "r0", name: "sweep", value: 1 }] },
    ingestTraces: { resourceSpans: [] },
  };
}

/** Real things for the path and header parameters, so that a request that got through would change them. */
interface Ids {
  suffix: string;
  project: string;
  dataset: string;
  column: string;
  traceId: string;
  apiKeyId: string;
  memberId: string;
  experimentId: string;
  otherExperimentId: string;
}

function validParameter(op: Operation, name: string, ids: Ids): string {
  const values: Record<string, string> = {
    projectSlug: ids.project,
    datasetSlug: ids.dataset,
    rowId: "r0",
    identifier: ids.column,
    version: "1",
    traceId: ids.traceId,
    id: op.tag === "members" ? ids.memberId : ids.apiKeyId,
    "X-Svc-Project": ids.project,
    from: op.operationId === "getTraceMetrics" ? "2025-05-01T00:00:00Z" : "1",
    to: op.operationId === "getTraceMetrics" ? "2025-05-01T06:00:00Z" : "1",
    importId: "nosuchimport",
    priceId: "nosuchprice",
    experimentId: ids.experimentId,
    otherExperimentId: ids.otherExperimentId,
  };
  const value = values[name];
  if (value === undefined) throw new Error(`the sweep has no valid value for ${op.operationId}'s "${name}"`);
  return value;
}

function resolver(document: Json) {
  const components = document.components as {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, Parameter>;
  };
  const schema = (s: JsonSchema): JsonSchema =>
    s.$ref ? schema(components.schemas[s.$ref.replace("#/components/schemas/", "")] as JsonSchema) : s;
  /** The one JSON type a schema allows, when it allows one. */
  const typeOf = (s: JsonSchema): string | undefined => {
    const r = schema(s);
    if (typeof r.type === "string") return r.type;
    if (r.const !== undefined) return typeof r.const;
    const variants = r.oneOf ?? r.anyOf;
    if (!variants) return undefined;
    const types = new Set(variants.map(typeOf));
    return types.size === 1 ? [...types][0] : undefined;
  };
  return { schema, typeOf };
}

const WRONG_VALUE: Record<string, unknown> = {
  string: 12345,
  integer: "not a number",
  number: "not a number",
  boolean: "yes",
  array: "not a list",
  object: "not an object",
};

/** Values that break exactly one constraint of a parameter's schema. */
function violations(
  parameter: Parameter,
  schema: JsonSchema,
): { label: string; value: string | undefined }[] {
  const out: { label: string; value: string | undefined }[] = [];
  if (parameter.required && parameter.in !== "path") out.push({ label: "left out", value: undefined });
  if (schema.type === "integer" || schema.type === "number") {
    out.push({ label: "not a number", value: "abc" });
    if (schema.type === "integer") out.push({ label: "not an integer", value: "1.5" });
    if (schema.minimum !== undefined)
      out.push({ label: "below its minimum", value: String(schema.minimum - 1) });
    if (schema.maximum !== undefined)
      out.push({ label: "above its maximum", value: String(schema.maximum + 1) });
  }
  if (schema.enum) out.push({ label: "not one of its choices", value: "not-a-choice" });
  if (schema.type === "string" && !schema.enum) {
    if (schema.pattern) {
      const pattern = new RegExp(schema.pattern);
      const value = ["bad value!", "-", "é"].find((v) => !pattern.test(v));
      if (value) out.push({ label: "not matching its pattern", value });
    }
    if (schema.maxLength !== undefined) {
      out.push({ label: "longer than its maximum", value: "a".repeat(schema.maxLength + 1) });
    }
    if (schema.minLength !== undefined && schema.minLength > 0 && parameter.in === "query") {
      out.push({ label: "empty", value: "" });
    }
  }
  return out;
}

/** Every bad request for one operation: its body, each constrained parameter, an unknown query parameter. */
function badRequests(op: Operation, documented: DocumentedOperation, document: Json, ids: Ids): BadRequest[] {
  const { schema, typeOf } = resolver(document);
  const parameters = documented.parameters.filter((p): p is Parameter => !("$ref" in p));
  const valid = {
    params: Object.fromEntries(
      parameters.filter((p) => p.in === "path").map((p) => [p.name, validParameter(op, p.name, ids)]),
    ),
    query: Object.fromEntries(
      parameters
        .filter((p) => p.in === "query" && p.required)
        .map((p) => [p.name, validParameter(op, p.name, ids)]),
    ),
    headers: Object.fromEntries(
      parameters
        .filter((p) => p.in === "header" && p.required)
        .map((p) => [p.name, validParameter(op, p.name, ids)]),
    ),
  };
  // A file upload's body is the file, not JSON: its parameters are swept, the file is not.
  const bodySchema = op.upload ? undefined : documented.requestBody?.content["application/json"].schema;
  const validBody = bodySchema ? validBodies(ids)[op.operationId] : undefined;
  if (bodySchema && validBody === undefined)
    throw new Error(`the sweep has no valid body for ${op.operationId}`);

  const request = (
    label: string,
    issuePaths: string[] | undefined,
    change: { params?: Json; query?: Json; headers?: Json; body?: string | null } = {},
  ): BadRequest => {
    const params = { ...valid.params, ...change.params } as Record<string, string>;
    const body =
      change.body === null
        ? undefined
        : (change.body ?? (validBody === undefined ? undefined : JSON.stringify(validBody)));
    return {
      label,
      path: op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] as string)),
      query: Object.fromEntries(
        Object.entries({ ...valid.query, ...change.query }).filter(([, v]) => v !== undefined),
      ) as Record<string, string>,
      headers: Object.fromEntries(
        Object.entries({ ...valid.headers, ...change.headers }).filter(([, v]) => v !== undefined),
      ) as Record<string, string>,
      body,
      issuePaths,
    };
  };

  const out: BadRequest[] = [request("an unknown query parameter", ["query"], { query: { zzUnknown: "1" } })];
  if (bodySchema) {
    const body = schema(bodySchema);
    out.push(
      request("malformed JSON", ["body"], { body: '{"name": "x",' }),
      request("an array body", ["body"], { body: "[1,2,3]" }),
      request("a string body", ["body"], { body: '"text"' }),
      request("a number body", ["body"], { body: "42" }),
    );
    if (body.additionalProperties === false) {
      out.push(
        request("an unknown top-level field", ["body"], {
          body: JSON.stringify({ ...(validBody as Json), zzUnknown: 1 }),
        }),
      );
    }
    const typed = Object.entries(body.properties ?? {}).find(
      ([, property]) => typeOf(property) !== undefined,
    );
    if (!typed) throw new Error(`${op.operationId}'s body has no field of one type to get wrong`);
    const [field, property] = typed;
    out.push(
      request(`a wrong type for "${field}"`, [`body.${field}`], {
        body: JSON.stringify({ ...(validBody as Json), [field]: WRONG_VALUE[typeOf(property) as string] }),
      }),
    );
  }
  for (const parameter of parameters) {
    for (const { label, value } of violations(parameter, schema(parameter.schema))) {
      // A header's issue names the header itself (`header.If-Match`), as the document does.
      const where = parameter.in === "path" ? "params" : parameter.in === "query" ? "query" : "headers";
      out.push(
        request(
          `${parameter.in} parameter "${parameter.name}" ${label}`,
          [`${parameter.in}.${parameter.name}`],
          {
            [where]: { [parameter.name]: value },
          },
        ),
      );
    }
  }
  return out;
}

describe.each(targets())("bad input to every operation, through the gateway (%s)", (_name, start) => {
  const suite = projectForSuite(start);
  let operator: Client;
  let document: Json;
  let ids: Ids;
  let base: string;
  /** What the sweep sent, per operation: proof that it covered the whole table. */
  const covered = new Map<string, string[]>();

  beforeAll(async () => {
    operator = client(suite.target.baseUrl, suite.target.adminToken);
    document = (await fetch(`${suite.target.baseUrl}/v1/openapi.json`).then((r) => r.json())) as Json;
    const { project } = suite;
    const fixture = await makeDataset(suite.api, project, { rows: 3, columns: 1 });
    base = fixture.base;
    const traceId = randomBytes(16).toString("hex");
    const ingested = await suite.api.post("/v1/traces", otlpExport(traceId), { "x-svc-project": project });
    expect(ingested.status).toBe(200);
    const key = await suite.api.post<{ id: string }>("/v1/api-keys", { name: "swept", role: "viewer" });
    const member = await suite.api.post<{ id: string }>("/v1/members", {
      email: `swept-${randomBytes(3).toString("hex")}@example.com`,
      role: "viewer",
    });
    const experiments = [];
    for (const name of ["swept a", "swept b"]) {
      const started = await suite.api.post<{ id: string }>(`${base}/experiments`, { name });
      expect(started.status).toBe(201);
      experiments.push(started.body.id);
    }
    const recorded = await suite.api.post(`/v1/projects/${project}/experiments/${experiments[0]}/results`, {
      results: [{ rowId: "r1", output: "kept" }],
    });
    expect(recorded.status).toBe(200);
    ids = {
      experimentId: experiments[0] as string,
      otherExperimentId: experiments[1] as string,
      suffix: randomBytes(3).toString("hex"),
      project,
      dataset: fixture.dataset.slug,
      column: fixture.columns[0] as string,
      traceId,
      apiKeyId: key.body.id,
      memberId: member.body.id,
    };
  });

  /** Everything a bad request could have changed, read through the API. */
  async function snapshot() {
    const get = async (path: string) => {
      const answer = await suite.api.get(path);
      expect(answer.status, path).toBe(200);
      return answer.body;
    };
    const traces = await suite.api.post<{ items: unknown[] }>(`/v1/projects/${ids.project}/traces/list`, {
      limit: 200,
    });
    return {
      dataset: await get(base),
      rows: await listAll(suite.api, `${base}/rows`),
      columns: await get(`${base}/columns?includeRemoved=true`),
      versions: await listAll(suite.api, `${base}/versions`),
      projects: await listAll(suite.api, "/v1/projects"),
      datasets: await listAll(suite.api, `/v1/projects/${ids.project}/datasets`),
      apiKeys: (
        (await get("/v1/api-keys")) as { apiKeys: { id: string; name: string; role: string }[] }
      ).apiKeys.map(({ id, name, role }) => ({ id, name, role })),
      members: await listAll(suite.api, "/v1/members"),
      traces: traces.body.items,
      experiments: await listAll(suite.api, `${base}/experiments`),
      results: await listAll(
        suite.api,
        `/v1/projects/${ids.project}/experiments/${ids.experimentId}/results`,
      ),
    };
  }

  it.each(swept.map((op) => [op.operationId, op] as const))(
    "refuses each bad input to %s with 400 validation_failed, changing nothing",
    async (operationId, op) => {
      const documented = (document.paths as Record<string, Record<string, DocumentedOperation>>)[op.path]?.[
        op.method.toLowerCase()
      ];
      expect(documented?.operationId).toBe(operationId);
      const requests = badRequests(op, documented as DocumentedOperation, document, ids);
      const caller = op.access === "operator" ? operator : suite.api;
      const before = await snapshot();

      for (const bad of requests) {
        const query = new URLSearchParams(bad.query).toString();
        const answer = await caller.send(
          op.method,
          `${bad.path}${query ? `?${query}` : ""}`,
          bad.body,
          bad.headers,
        );
        const error: ErrorBody = await expectError(answer, 400, "validation_failed").catch(
          (failure: Error) => {
            throw new Error(
              `${operationId}, ${bad.label}: ${failure.message}\n${JSON.stringify(answer.body)}`,
            );
          },
        );
        const issues = error.details?.issues;
        expect(Array.isArray(issues), `${operationId}, ${bad.label}: details.issues`).toBe(true);
        if (bad.issuePaths) {
          expect([...new Set((issues ?? []).map((i) => i.path))], `${operationId}, ${bad.label}`).toEqual(
            bad.issuePaths,
          );
          for (const issue of issues ?? [])
            expect(issue.message.length, `${operationId}, ${bad.label}`).toBeGreaterThan(3);
        }
      }

      expect(await snapshot()).toEqual(before);
      covered.set(
        operationId,
        requests.map((r) => r.label),
      );
    },
  );

  it("covered every operation of the table but the browser's session, each with an unknown query parameter, and every body with all its cases", () => {
    const documentedIds = Object.values(document.paths as Record<string, Record<string, DocumentedOperation>>)
      .flatMap((item) => Object.values(item))
      .map((op) => op.operationId)
      .sort();
    expect(documentedIds).toEqual(operationList.map((op) => op.operationId).sort());
    expect(documentedIds.filter((id) => !covered.has(id))).toEqual([
      "createSession",
      "deleteSession",
      "emailSignInLink",
      "getSession",
    ]);
    expect([...covered.keys()].sort()).toEqual(swept.map((op) => op.operationId).sort());
    const total = [...covered.values()].reduce((n, labels) => n + labels.length, 0);
    console.info(`bad-input sweep: ${total} refused requests over ${covered.size} operations`);
    for (const op of swept) {
      const labels = covered.get(op.operationId) ?? [];
      expect(labels, op.operationId).toContain("an unknown query parameter");
      if (op.body) {
        for (const label of ["malformed JSON", "an array body", "a string body", "a number body"]) {
          expect(labels, op.operationId).toContain(label);
        }
        expect(
          labels.some((l) => l.startsWith("a wrong type for")),
          op.operationId,
        ).toBe(true);
      }
    }
    // Only OTLP bodies take unknown fields: its receivers must ignore them (OTLP/HTTP JSON encoding).
    const tolerant = swept.filter(
      (op) => op.body && !covered.get(op.operationId)?.includes("an unknown top-level field"),
    );
    expect(tolerant.map((op) => op.operationId)).toEqual(["ingestTraces"]);
  });

  it("ignores an unknown top-level field of an OTLP export, as OTLP receivers must", async () => {
    const traceId = randomBytes(16).toString("hex");
    const answer = await suite.api.post(
      "/v1/traces",
      { ...otlpExport(traceId), futureField: 1 },
      { "x-svc-project": ids.project },
    );
    expect(answer.status).toBe(200);
    expect((await suite.api.get(`/v1/projects/${ids.project}/traces/${traceId}`)).status).toBe(200);
  });
});

/** An OTLP/HTTP JSON export of one span. */
function otlpExport(traceId: string) {
  const nanos = (BigInt(Date.now()) * 1_000_000n).toString();
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: "sweep" } }] },
        scopeSpans: [
          {
            scope: { name: "sweep" },
            spans: [
              {
                traceId,
                spanId: randomBytes(8).toString("hex"),
                name: "root",
                kind: 1,
                startTimeUnixNano: nanos,
                endTimeUnixNano: nanos,
                attributes: [],
                status: { code: 0 },
              },
            ],
          },
        ],
      },
    ],
  };
}
