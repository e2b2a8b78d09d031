import {
  authorise,
  callerOf,
  callOperation,
  InProcessBus,
  parseOperationInput,
  type RawInput,
} from "@svc/bus";
import { type Caller, DomainError, MAX_INPUT_DEPTH, operations, type RequestContext } from "@svc/contracts";
import { silentLogger } from "@svc/telemetry";
import { describe, expect, test } from "vitest";
import { serveOperation, serveOperatorOperation } from "./operations";

const nul = "must not contain the character U+0000 (\\u0000), which cannot be stored";
const datasetPath = { projectSlug: "p", datasetSlug: "d" };
const rowPath = { ...datasetPath, rowId: "r1" };

function failureOf(run: () => unknown): { message: string; issues: { path: string; message: string }[] } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== "validation_failed") throw error;
    const issues = (error.details?.issues ?? []) as { path: string; message: string }[];
    return { message: error.message, issues: issues.map(({ path, message }) => ({ path, message })) };
  }
  throw new Error("expected validation_failed");
}

const raw = (input: Partial<RawInput>): RawInput => ({
  params: {},
  query: {},
  body: undefined,
  headers: {},
  ...input,
});

describe("parseOperationInput refuses what cannot be stored, on every operation", () => {
  test("U+0000 in an edit's cell, naming where", () => {
    const failure = failureOf(() =>
      parseOperationInput(
        operations.updateDatasetRow,
        raw({ params: rowPath, body: { metadata: { tags: ["ok", "x\u0000"] } } }),
      ),
    );
    expect(failure.issues).toEqual([{ path: "body.metadata.tags.1", message: nul }]);
    expect(failure.message).toBe(`Request is invalid: body.metadata.tags.1: ${nul}`);
  });

  test("U+0000 in an inserted row, naming the row", () => {
    const body = { rows: [{ input: "fine" }, { input: "x", custom: { c: ["\u0000"] } }] };
    expect(
      failureOf(() => parseOperationInput(operations.insertDatasetRows, raw({ params: datasetPath, body })))
        .issues,
    ).toEqual([{ path: "body.rows.1.custom.c.0", message: nul }]);
  });

  test("U+0000 in a name, where no schema of the operation looks for it", () => {
    expect(
      failureOf(() => parseOperationInput(operations.createProject, raw({ body: { name: "a\u0000b" } })))
        .issues,
    ).toEqual([{ path: "body.name", message: nul }]);
  });

  test("U+0000 in a query parameter", () => {
    expect(
      failureOf(() =>
        parseOperationInput(
          operations.listDatasetRows,
          raw({ params: { projectSlug: "p", datasetSlug: "d" }, query: { search: "x\u0000" } }),
        ),
      ).issues,
    ).toEqual([{ path: "query.search", message: nul }]);
  });

  test("a cell nested deeper than the limit, without overflowing the stack", () => {
    let cell: unknown = "leaf";
    for (let i = 0; i < 5000; i++) cell = [cell];
    const failure = failureOf(() =>
      parseOperationInput(operations.updateDatasetRow, raw({ params: rowPath, body: { output: cell } })),
    );
    expect(failure.issues).toHaveLength(1);
    expect(failure.issues[0]?.message).toBe(`is nested more than ${MAX_INPUT_DEPTH} levels deep; flatten it`);
    expect(failure.issues[0]?.path).toMatch(/^body\.output(\.0)+$/);
  });

  test("accepts a cell nested as deep as the limit allows", () => {
    let cell: unknown = "leaf";
    for (let i = 0; i < MAX_INPUT_DEPTH - 1; i++) cell = [cell];
    const input = parseOperationInput(
      operations.updateDatasetRow,
      raw({ params: rowPath, body: { output: cell } }),
    );
    expect(input.body).toEqual({ output: cell });
  });
});

describe("parseOperationInput names where each problem is", () => {
  test("a header by the name the client sends, not the input's key", () => {
    const failure = failureOf(() =>
      parseOperationInput(
        operations.updateDatasetRow,
        raw({ params: rowPath, body: { output: "x" }, headers: { ifMatch: "abc" } }),
      ),
    );
    expect(failure.issues).toEqual([
      { path: "header.If-Match", message: "must be an integer from 0 to 2147483647" },
    ]);
    expect(failure.message).toBe(
      "Request is invalid: header.If-Match: must be an integer from 0 to 2147483647",
    );
  });
});

describe("serveOperation hands a handler a caller known to be present", () => {
  const owner = {
    organizationId: "org1",
    role: "owner",
    actor: { kind: "apiKey", id: "k1" },
    requestId: "r1",
  } as const;
  const serve = () => {
    const bus = new InProcessBus();
    const seen: Caller[] = [];
    serveOperation(bus, operations.createProject, silentLogger(), async (_input, caller) => {
      seen.push(caller);
      const at = "2026-01-01T00:00:00.000Z";
      return {
        id: "p1",
        organizationId: caller.organizationId,
        name: "P",
        slug: "p",
        createdAt: at,
        updatedAt: at,
      };
    });
    const call = (context: RequestContext) =>
      callOperation(bus, operations.createProject, context, raw({ body: { name: "P" } })).catch(
        (error: unknown) => error,
      );
    return { bus, seen, call };
  };

  test("passes the credential's organisation, role and actor through", async () => {
    const { bus, seen, call } = serve();
    const before = Date.now();
    await call({ ...owner, idempotencyKey: "i1" });
    expect(seen).toEqual([{ ...owner, idempotencyKey: "i1", deadline: expect.any(Number) }]);
    // The bus's default timeout from when it was sent: the deadline travels with the caller.
    expect(seen[0]?.deadline).toBeGreaterThanOrEqual(before + 15_000);
    await bus.close();
  });

  test("keeps the earlier deadline of the one the request carries and its timeout", async () => {
    const { bus, seen, call } = serve();
    const soon = Date.now() + 2_000;
    await call({ ...owner, deadline: soon });
    expect(seen[0]?.deadline).toBe(soon);
    await bus.close();
  });

  test("drops a request whose deadline has passed before the handler starts", async () => {
    const { bus, seen, call } = serve();
    const error = await call({ ...owner, deadline: Date.now() - 1 });
    expect((error as DomainError).toData()).toEqual({
      code: "upstream_timeout",
      message: expect.stringMatching(/could not start on the request before its deadline/),
    });
    expect(seen).toEqual([]);
    await bus.close();
  });

  test.each([
    ["no organisation", { organizationId: null }],
    ["no role", { role: null }],
    ["no actor", { actor: null }],
  ])("refuses a context with %s, before the handler runs", async (_, missing) => {
    const { bus, seen, call } = serve();
    const error = await call({ ...owner, ...missing } as RequestContext);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).toData()).toEqual({
      code: "unauthenticated",
      message: "This operation needs an API key",
    });
    expect(seen).toEqual([]);
    await bus.close();
  });

  test("refuses a role below the operation's least role", async () => {
    const { bus, seen, call } = serve();
    const error = await call({ ...owner, role: "viewer" });
    expect((error as DomainError).toData()).toEqual({
      code: "forbidden",
      message: "This key's role (viewer) may not do this; createProject needs member or higher",
    });
    expect(seen).toEqual([]);
    await bus.close();
  });

  test("keeps the operator's operations apart: each has its own way to be served", () => {
    const bus = new InProcessBus();
    const answer = async () => {
      throw new Error("not called");
    };
    expect(() => serveOperation(bus, operations.createOrganization, silentLogger(), answer)).toThrow(
      /serveOperatorOperation/,
    );
    expect(() => serveOperatorOperation(bus, operations.createProject, silentLogger(), answer)).toThrow(
      /serveOperation/,
    );
  });
});

describe("authorise: the one check of who may call an operation, for the gateway and the services", () => {
  const context = (over: Partial<RequestContext>): RequestContext => ({
    requestId: "req_1",
    organizationId: "org_1",
    role: "member",
    actor: { kind: "apiKey", id: "key_1" },
    ...over,
  });
  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      if (error instanceof DomainError) return error.toData();
      throw error;
    }
    return undefined;
  };

  test("admits a role that reaches the operation's least role, and the operator token to its operations", () => {
    expect(refusal(() => authorise(operations.createProject, context({ role: "member" })))).toBeUndefined();
    expect(refusal(() => authorise(operations.createProject, context({ role: "owner" })))).toBeUndefined();
    const operator = context({ organizationId: null, role: null, actor: null });
    expect(refusal(() => authorise(operations.createOrganization, operator))).toBeUndefined();
  });

  test("refuses as callerOf refuses, word for word", () => {
    for (const over of [{ role: "viewer" as const }, { organizationId: null }, { actor: null }]) {
      const expected = refusal(() => callerOf(operations.createProject, context(over)));
      expect(expected).toBeDefined();
      expect(refusal(() => authorise(operations.createProject, context(over)))).toEqual(expected);
    }
    expect(refusal(() => authorise(operations.createProject, context({ role: "viewer" })))).toEqual({
      code: "forbidden",
      message: "This key's role (viewer) may not do this; createProject needs member or higher",
    });
  });

  test("refuses an API key on an operator's operation, as serveOperatorOperation does", () => {
    expect(refusal(() => authorise(operations.createOrganization, context({ role: "owner" })))).toEqual({
      code: "unauthenticated",
      message: "This route needs the operator token",
    });
  });
});
