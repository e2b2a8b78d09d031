import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, makeDataset, type Page, type Row } from "../factories";
import { client } from "../http";
import { connectAgent } from "../mcp-agent";
import { projectForSuite, targets } from "../targets";

interface Experiment {
  id: string;
  version: number;
  status: string;
  rows: number;
  results: number;
  carried: number;
  baseExperimentId: string | null;
  scores: Record<string, { count: number; mean: number | null }>;
}
interface Result {
  rowId: string;
  output: unknown;
  carriedFrom: string | null;
  scores: Record<string, { value: unknown; source: string }>;
}
interface Comparison extends Page<{ rowId: string; change: string; rowChanged: boolean }> {
  summary: { regressed: number; improved: number; same: number; added: number; rowsChanged: number };
}

describe.each(targets())("experiments through the gateway (%s)", (_name, start) => {
  const suite = projectForSuite(start);
  let base: string;
  const experiments = () => `/v1/projects/${suite.project}/experiments`;

  beforeAll(async () => {
    ({ base } = await makeDataset(suite.api, suite.project, { rows: 4 }));
    for (let i = 0; i < 4; i++) {
      const edited = await suite.api.patch(`${base}/rows/r${i}`, { expectedOutput: `a${i}` });
      expect(edited.status).toBe(200);
    }
  });

  it("runs a dataset version: start, pending, record with rules, then an incremental run and a comparison", async () => {
    const started = await suite.api.post<Experiment>(`${base}/experiments`, {
      name: "baseline",
      evaluators: [{ name: "exact", kind: "exact_match" }],
    });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ version: 5, rows: 4, results: 0, status: "running" });
    const first = started.body;

    const pending = await suite.api.get<Page<Row>>(`${experiments()}/${first.id}/pending?limit=10`);
    expect(pending.body.items.map((row) => row.rowId)).toEqual(["r0", "r1", "r2", "r3"]);

    const results = pending.body.items.map((row) => ({
      rowId: row.rowId,
      output: row.rowId === "r2" ? "?" : `a${row.rowId.slice(1)}`,
    }));
    const headers = { "idempotency-key": `run-${first.id}` };
    const recorded = await suite.api.post(`${experiments()}/${first.id}/results`, { results }, headers);
    expect(recorded).toMatchObject({ status: 200, body: { recorded: 4 } });
    const retried = await suite.api.post(`${experiments()}/${first.id}/results`, { results }, headers);
    expect(retried).toMatchObject({ status: 200, body: { recorded: 4 } });
    const read = await suite.api.get<Experiment>(`${experiments()}/${first.id}`);
    expect(read.body).toMatchObject({ results: 4, scores: { exact: { count: 4, mean: 0.75 } } });

    expect((await suite.api.patch(`${base}/rows/r3`, { expectedOutput: "changed" })).status).toBe(200);
    const next = await suite.api.post<Experiment>(`${base}/experiments`, {
      name: "after one edit",
      baseExperimentId: first.id,
      evaluators: [{ name: "exact", kind: "exact_match" }],
    });
    expect(next.body).toMatchObject({ version: 6, carried: 3, results: 3 });
    const left = await suite.api.get<Page<Row>>(`${experiments()}/${next.body.id}/pending`);
    expect(left.body.items.map((row) => row.rowId)).toEqual(["r3"]);
    await suite.api.post(`${experiments()}/${next.body.id}/results`, {
      results: [{ rowId: "r3", output: "a3" }],
    });

    const compared = await suite.api.get<Comparison>(`${experiments()}/${first.id}/compare/${next.body.id}`);
    expect(compared.status).toBe(200);
    expect(compared.body.items.map((entry) => [entry.rowId, entry.change, entry.rowChanged])).toEqual([
      ["r3", "regressed", true],
      ["r0", "same", false],
      ["r1", "same", false],
      ["r2", "same", false],
    ]);
    expect(compared.body.summary).toMatchObject({ regressed: 1, same: 3, rowsChanged: 1 });

    const failing = await suite.api.get<Page<Result>>(
      `${experiments()}/${next.body.id}/results?score=exact&below=1`,
    );
    expect(failing.body.items.map((result) => [result.rowId, result.carriedFrom])).toEqual([
      ["r2", first.id],
      ["r3", null],
    ]);

    const finished = await suite.api.patch<Experiment>(`${experiments()}/${next.body.id}`, {
      status: "finished",
    });
    expect(finished.body.status).toBe("finished");
    await expectError(
      suite.api.post(`${experiments()}/${next.body.id}/results`, {
        results: [{ rowId: "r0", output: "a0" }],
      }),
      409,
      "conflict",
    );
  });

  it("answers bad input with the problem named, and keeps experiments inside their organisation", async () => {
    const broken = await expectError(
      suite.api.post(`${base}/experiments`, {
        name: "broken",
        evaluators: [{ name: "re", kind: "regex", pattern: "([" }],
      }),
      400,
      "validation_failed",
    );
    expect(broken.error).toContain('evaluator "re"');
    const started = await suite.api.post<Experiment>(`${base}/experiments`, { name: "guarded" });
    const id = started.body.id;
    const unknown = await expectError(
      suite.api.post(`${experiments()}/${id}/results`, { results: [{ rowId: "ghost", output: 1 }] }),
      400,
      "unknown_row",
    );
    expect(unknown.details).toMatchObject({ rowIds: ["ghost"] });

    const viewer = await suite.api.post<{ token: string }>("/v1/api-keys", {
      name: "reader",
      role: "viewer",
    });
    const asViewer = client(suite.target.baseUrl, viewer.body.token);
    expect((await asViewer.get(`${experiments()}/${id}`)).status).toBe(200);
    await expectError(
      asViewer.post(`${experiments()}/${id}/results`, { results: [{ rowId: "r0", output: 1 }] }),
      403,
      "forbidden",
    );
    const stranger = client(suite.target.baseUrl, await suite.target.newOrganizationKey());
    await expectError(stranger.get(`${experiments()}/${id}`), 404, "not_found");
    expect((await suite.api.delete(`${experiments()}/${id}`)).status).toBe(204);
    await expectError(suite.api.get(`${experiments()}/${id}`), 404, "not_found");
  });

  describe("through an agent's MCP connection", () => {
    let agent: Awaited<ReturnType<typeof connectAgent>>;
    beforeAll(async () => {
      agent = await connectAgent(new URL(`${suite.target.baseUrl}/v1/mcp`), {
        apiKey: suite.target.ownerKey,
        role: "member",
      });
    });
    afterAll(async () => {
      await agent?.client.close();
    });
    const call = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
      const result = (await agent.client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
      return result.structuredContent as T;
    };

    it("starts an experiment, fetches pending rows, records results and compares", async () => {
      const datasetSlug = base.split("/").at(-1) as string;
      const projectSlug = suite.project;
      const a = await call<Experiment>("createExperiment", {
        projectSlug,
        datasetSlug,
        name: "agent run",
        evaluators: [{ name: "exact", kind: "exact_match" }],
      });
      const pending = await call<Page<Row>>("listExperimentPendingRows", { projectSlug, experimentId: a.id });
      expect(pending.items).toHaveLength(4);
      const recorded = await call<{ recorded: number }>("recordExperimentResults", {
        projectSlug,
        experimentId: a.id,
        results: pending.items.map((row) => ({ rowId: row.rowId, output: row.expectedOutput })),
      });
      expect(recorded.recorded).toBe(4);
      const b = await call<Experiment>("createExperiment", {
        projectSlug,
        datasetSlug,
        name: "again",
        baseExperimentId: a.id,
      });
      const compared = await call<Comparison>("compareExperiments", {
        projectSlug,
        experimentId: a.id,
        otherExperimentId: b.id,
      });
      expect(compared.summary).toMatchObject({ regressed: 0, improved: 0, same: 4 });
    });
  });
});
