import { parseOperationInput } from "@svc/bus";
import { emptySchema, type Operation, operationList, operations } from "@svc/contracts";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { operationTool, operationTools } from "./tools";

const tool = (name: keyof typeof operations) => operationTool(operations[name]);

describe("MCP tools from the operation table", () => {
  it("makes one tool per operation an organisation may call, named by operationId", () => {
    const names = operationTools().map((t) => t.definition.name);
    const expected = operationList
      .filter((op) => op.access !== "operator" && !op.file && !op.upload && !op.events && !op.browserSession)
      .map((op) => op.operationId);
    expect(names).toEqual(expected);
    expect(names).not.toContain("createSession");
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain("createOrganization");
  });

  it("flattens path, body and header inputs of updateDatasetRow, requiring only the path", () => {
    const { definition } = tool("updateDatasetRow");
    expect(definition.name).toBe("updateDatasetRow");
    expect(definition.description).toContain("only the cells present change");
    expect(Object.keys(definition.inputSchema.properties as object).sort()).toEqual(
      [
        "custom",
        "datasetSlug",
        "expectedOutput",
        "ifMatch",
        "input",
        "metadata",
        "output",
        "projectSlug",
        "rowId",
      ].sort(),
    );
    expect(definition.inputSchema.required).toEqual(["projectSlug", "datasetSlug", "rowId"]);
    expect(definition.inputSchema.additionalProperties).toBe(false);
    expect(definition.inputSchema.$schema).toBeUndefined();
    // Each call is a new dataset version, so a repeated call is not a no-op.
    expect(definition.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    });
  });

  // [readOnly, destructive, idempotent] of every tool, reviewed one by one against what the operation
  // does: a new operation fails here until someone states what it does.
  const R = [true, false, true] as const; // reads only
  const ADD = [false, false, false] as const; // adds something new at each call
  const SET = [false, true, true] as const; // overwrites or removes, and a repeat changes nothing more
  const hints: Record<string, readonly [boolean, boolean, boolean]> = {
    getAccount: R,
    listApiKeys: R,
    createApiKey: ADD,
    getApiKey: R,
    updateApiKey: SET,
    deleteApiKey: SET,
    listProjects: R,
    createProject: ADD,
    getProject: R,
    updateProject: SET,
    deleteProject: SET,
    listMembers: R,
    addMember: ADD,
    updateMember: SET,
    removeMember: SET,
    listDatasets: R,
    createDataset: ADD,
    getDataset: R,
    updateDataset: SET,
    deleteDataset: SET,
    listDatasetRows: R,
    countDatasetRows: R,
    getDatasetRow: R,
    insertDatasetRows: ADD,
    // A new version at each call, even with the same cells.
    updateDatasetRow: [false, true, false],
    // Cells already as asked are not written again, and no version is made for nothing.
    updateDatasetRows: SET,
    copyDatasetRows: ADD,
    getDatasetImport: R,
    // Rows already gone are not deleted again, and no version is made for nothing.
    deleteDatasetRows: SET,
    getDatasetRowHistory: R,
    listDatasetColumns: R,
    createDatasetColumn: ADD,
    updateDatasetColumn: SET,
    deleteDatasetColumn: SET,
    restoreDatasetColumn: [false, false, true],
    reorderDatasetColumns: SET,
    listDatasetVersions: R,
    getDatasetVersion: R,
    diffDatasetVersions: R,
    // Replaces the current data, as one more version at each call.
    restoreDatasetVersion: [false, true, false],
    ingestTraces: SET,
    // A POST only because its filters travel in the body.
    listTraces: R,
    getTrace: R,
    importDatasetRowsFromTraces: ADD,
    createExperiment: ADD,
    listExperiments: R,
    getExperiment: R,
    updateExperiment: SET,
    deleteExperiment: SET,
    listExperimentPendingRows: R,
    // A row's new result replaces its old one: the same batch again changes nothing more.
    recordExperimentResults: SET,
    recordExperimentScores: SET,
    listExperimentResults: R,
    compareExperiments: R,
    updateAccountUser: SET,
    leaveOrganization: SET,
    listModelPrices: R,
    // Replaces the organisation's price for the same model and day, if it has one.
    setModelPrice: SET,
    deleteModelPrice: SET,
    getTraceMetrics: R,
    listTraceSessions: R,
    listTraceUsers: R,
  };

  it("annotates every tool truthfully: read-only, destructive and idempotent as the operation is", () => {
    const actual = Object.fromEntries(
      operationTools().map(({ definition: { name, annotations } }) => [
        name,
        [annotations.readOnlyHint, annotations.destructiveHint, annotations.idempotentHint],
      ]),
    );
    expect(actual).toEqual(hints);
    for (const { definition } of operationTools()) expect(definition.annotations.openWorldHint).toBe(false);
  });

  it("does not require fields that have a default", () => {
    const { definition } = tool("listDatasetRows");
    expect(definition.inputSchema.required).toEqual(["projectSlug", "datasetSlug"]);
    expect(definition.inputSchema.properties).toMatchObject({
      limit: { default: 50 },
      sortDirection: { default: "desc" },
    });
    expect(definition.annotations.readOnlyHint).toBe(true);
  });

  it("splits arguments back into the parts the HTTP route receives, and the same schemas parse them", () => {
    const update = tool("updateDatasetRow");
    const raw = update.toRawInput({
      projectSlug: "p",
      datasetSlug: "d",
      rowId: "r0",
      ifMatch: 3,
      output: null,
      custom: { c1: "easy" },
    });
    expect(raw).toEqual({
      params: { projectSlug: "p", datasetSlug: "d", rowId: "r0" },
      query: {},
      body: { output: null, custom: { c1: "easy" } },
      headers: { ifMatch: 3 },
    });
    expect(parseOperationInput(operations.updateDatasetRow, raw)).toMatchObject({
      headers: { ifMatch: 3 },
      body: { output: null, custom: { c1: "easy" } },
    });
  });

  it("turns numbers and booleans of the query into the strings a URL would carry", () => {
    const raw = tool("listDatasetColumns").toRawInput({
      projectSlug: "p",
      datasetSlug: "d",
      includeRemoved: true,
    });
    expect(raw.query).toEqual({ includeRemoved: "true" });
    expect(parseOperationInput(operations.listDatasetColumns, raw).query).toEqual({ includeRemoved: true });
    const list = tool("listDatasetRows").toRawInput({ projectSlug: "p", datasetSlug: "d", limit: 10 });
    expect(parseOperationInput(operations.listDatasetRows, list).query).toMatchObject({ limit: 10 });
  });

  it("sends an unknown argument where a strict schema refuses it by name", () => {
    const withBody = tool("updateDatasetRow").toRawInput({
      projectSlug: "p",
      datasetSlug: "d",
      rowId: "r",
      colour: 1,
    });
    expect(withBody.body).toEqual({ colour: 1 });
    expect(() => parseOperationInput(operations.updateDatasetRow, withBody)).toThrow(/colour/);
    const withoutBody = tool("getDataset").toRawInput({ projectSlug: "p", datasetSlug: "d", colour: 1 });
    expect(withoutBody.query).toEqual({ colour: "1" });
    expect(() => parseOperationInput(operations.getDataset, withoutBody)).toThrow(/colour/);
  });

  it("keeps an argument named __proto__ an argument, which the strict schemas refuse by name", () => {
    // As an MCP client's JSON arrives: JSON.parse makes `__proto__` an ordinary key.
    const args = JSON.parse(
      '{"projectSlug":"p","datasetSlug":"d","rowId":"r","output":1,"__proto__":{"input":"smuggled"}}',
    ) as Record<string, unknown>;
    const raw = tool("updateDatasetRow").toRawInput(args);
    expect(Object.keys(raw.body as object)).toEqual(["output", "__proto__"]);
    expect(() => parseOperationInput(operations.updateDatasetRow, raw)).toThrow(/__proto__/);
    // And as the bus carries it, in JSON: the name travels, the smuggled field does not become the body's.
    const carried = JSON.parse(JSON.stringify(raw)) as typeof raw;
    expect(() => parseOperationInput(operations.updateDatasetRow, carried)).toThrow(/__proto__/);
    const query = tool("getDatasetRow").toRawInput(
      JSON.parse('{"projectSlug":"p","datasetSlug":"d","rowId":"r","__proto__":{"version":"1"}}'),
    );
    expect(Object.keys(query.query)).toEqual(["__proto__"]);
    expect(() => parseOperationInput(operations.getDatasetRow, query)).toThrow(/__proto__/);
  });

  it("gives a body operation an empty body when no body argument is sent, so validation names what is missing", () => {
    const raw = tool("createProject").toRawInput({});
    expect(raw.body).toEqual({});
    expect(() => parseOperationInput(operations.createProject, raw)).toThrow(/body\.name/);
  });

  const fake = (spec: { params?: z.ZodType; body?: z.ZodType }): Operation => ({
    operationId: "fake",
    command: "fake",
    method: "POST",
    path: "/v1/fake",
    tag: "projects",
    summary: "Fake",
    subject: "svc.v1.fake",
    access: "member",
    params: spec.params ?? emptySchema,
    query: emptySchema,
    body: spec.body ?? null,
    headers: null,
    response: null,
    successStatus: 204,
    errors: [],
    paginated: false,
    effect: { readOnly: false, destructive: false, idempotent: false },
    unstorableText: "refuse",
  });

  it("refuses an operation whose parts share a field name", () => {
    const op = fake({
      params: z.strictObject({ name: z.string() }),
      body: z.strictObject({ name: z.string() }),
    });
    expect(() => operationTool(op)).toThrow('fake: "name" is both a params and a body field');
  });

  it("sees through wrappers of an object body, and passes any other body as one argument", () => {
    const wrapped = operationTool(
      fake({ body: z.strictObject({ limit: z.number().default(5) }).prefault({}) }),
    );
    expect(Object.keys(wrapped.definition.inputSchema.properties as object)).toEqual(["limit"]);
    const list = operationTool(fake({ body: z.array(z.string()) }));
    expect(list.definition.inputSchema.required).toEqual(["body"]);
    expect(list.toRawInput({ body: ["a"] }).body).toEqual(["a"]);
  });
});
