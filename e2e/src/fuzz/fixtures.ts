import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { type Dataset, listAll, type Row } from "../factories";
import { type Client, client } from "../http";
import type { FuzzOperation } from "./document";

const PROJECT_NAME = "Fuzz project";
const DATASET_NAME = "Fuzz set";
const TARGET_NAME = "Fuzz copy target";
const ROW_IDS = ["r0", "r1", "r2"];

/** One OTLP/JSON export of a one-span trace with an input and an output. */
const otlpExport = (traceId: string) => ({
  resourceSpans: [
    {
      resource: { attributes: [] },
      scopeSpans: [
        {
          spans: [
            {
              traceId,
              spanId: randomBytes(8).toString("hex"),
              name: "fuzz",
              startTimeUnixNano: "1746100800000000000",
              endTimeUnixNano: "1746100802500000000",
              attributes: [
                { key: "gen_ai.input.messages", value: { stringValue: '[{"role":"user","content":"q"}]' } },
                {
                  key: "gen_ai.output.messages",
                  value: { stringValue: '[{"role":"assistant","content":"a"}]' },
                },
              ],
            },
          ],
        },
      ],
    },
  ],
});

/**
 * A fresh organisation with something behind every path parameter: a project, a dataset with a custom
 * column and rows r0…r2, a second dataset to copy into, a trace, an API key and a member that the
 * suite may delete, an import. Cases that succeed may delete or change them: `ensure` puts back what
 * is missing, and cases name fixtures by role, so they keep pointing at live things.
 */
export class Fixtures {
  readonly values: Record<string, string> = {};
  readonly api: Client;

  private constructor(
    readonly baseUrl: string,
    readonly key: string,
    private readonly adminToken: string,
  ) {
    this.api = client(baseUrl, key);
  }

  static async create(baseUrl: string, key: string, adminToken: string): Promise<Fixtures> {
    const fixtures = new Fixtures(baseUrl, key, adminToken);
    await fixtures.ensure();
    return fixtures;
  }

  /** A path, query or header parameter's valid value. */
  valueOf(name: string, op: FuzzOperation): string {
    if (name === "id") return (op.tag === "members" ? this.values.memberId : this.values.apiKeyId) as string;
    const value = {
      projectSlug: this.values.projectSlug,
      "X-Svc-Project": this.values.projectSlug,
      datasetSlug: this.values.datasetSlug,
      rowId: "r1",
      identifier: this.values.identifier,
      version: "1",
      from: "1",
      to: "2",
      "If-Match": "1",
      traceId: this.values.traceId,
      importId: this.values.importId,
      experimentId: this.values.experimentId,
      otherExperimentId: this.values.otherExperimentId,
      priceId: this.values.priceId,
    }[name];
    if (value === undefined) throw new Error(`no fixture for the parameter "${name}" of ${op.operationId}`);
    return value;
  }

  authorization(kind: "key" | "malformed" | "unknown key" | "operator"): string {
    switch (kind) {
      case "key":
        return `Bearer ${this.key}`;
      case "malformed":
        return "Bearer";
      case "unknown key":
        return `Bearer svc_${"x".repeat(32)}`;
      case "operator":
        return `Bearer ${this.adminToken}`;
    }
  }

  /** Puts back whatever a case deleted, and learns the identifiers of what it had to make anew. */
  async ensure(): Promise<void> {
    const project = await this.findOrCreate("/v1/projects", PROJECT_NAME, "projectSlug");
    const datasets = `/v1/projects/${project}/datasets`;
    await this.findOrCreate(datasets, TARGET_NAME, "targetDatasetSlug");
    const dataset = await this.findOrCreate(datasets, DATASET_NAME, "datasetSlug");
    const base = `${datasets}/${dataset}`;
    await this.ensureColumn(base);
    await this.ensureRows(base);
    await this.ensureTrace(project);
    await this.ensureKeyAndMember();
    await this.ensureModelPrice();
    await this.ensureExperiments(project, base);
    const target = `${datasets}/${this.values.targetDatasetSlug}`;
    const importId = this.values.importId;
    if (!importId || (await this.api.get(`${target}/imports/${importId}`)).status !== 200) {
      this.values.importId = await this.importInto(target);
    }
  }

  private async findOrCreate(list: string, name: string, as: string): Promise<string> {
    const items = await listAll<{ slug: string; name: string }>(this.api, list);
    // By slug first: a case may have renamed it.
    const found =
      items.find((item) => item.slug === this.values[as]) ?? items.find((item) => item.name === name);
    if (found) {
      this.values[as] = found.slug;
      return found.slug;
    }
    const created = await this.api.post<{ slug: string }>(list, { name });
    expect(created.status, `${list}: ${JSON.stringify(created.body)}`).toBe(201);
    this.values[as] = created.body.slug;
    return created.body.slug;
  }

  private async ensureColumn(base: string): Promise<void> {
    const { body } = await this.api.get<{
      columns: { identifier: string; name: string; removed?: boolean }[];
    }>(`${base}/columns?includeRemoved=true`);
    const column =
      body.columns.find((c) => c.identifier === this.values.identifier) ??
      body.columns.find((c) => c.name === "fuzz column");
    if (column?.removed) await this.api.post(`${base}/columns/${column.identifier}/restore`);
    if (column) {
      this.values.identifier = column.identifier;
      return;
    }
    const created = await this.api.post<{ identifier: string }>(`${base}/columns`, { name: "fuzz column" });
    expect(created.status).toBe(201);
    this.values.identifier = created.body.identifier;
  }

  private async ensureRows(base: string): Promise<void> {
    const present = new Set((await listAll<Row>(this.api, `${base}/rows`)).map((row) => row.rowId));
    const missing = ROW_IDS.filter((id) => !present.has(id));
    if (missing.length === 0) return;
    const inserted = await this.api.post(`${base}/rows`, {
      rows: missing.map((id) => ({ id, input: { question: id }, output: `answer ${id}` })),
    });
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(201);
  }

  private async ensureTrace(project: string): Promise<void> {
    const traceId = this.values.traceId ?? randomBytes(16).toString("hex");
    const found = await this.api.get(`/v1/projects/${project}/traces/${traceId}`);
    if (found.status !== 200) {
      const ingested = await this.api.post("/v1/traces", otlpExport(traceId), { "x-svc-project": project });
      expect(ingested.status).toBe(200);
    }
    this.values.traceId = traceId;
  }

  /** One of the organisation's own model prices (a case may delete it). */
  private async ensureModelPrice(): Promise<void> {
    const prices = await this.api.get<{ modelPrices: { id: string }[] }>("/v1/model-prices");
    if (prices.body.modelPrices.some((price) => price.id === this.values.priceId)) return;
    const created = await this.api.post<{ id: string }>("/v1/model-prices", {
      model: "fuzz-model",
      effectiveFrom: "2025-01-01",
      inputUsdPerMillionTokens: 1,
      outputUsdPerMillionTokens: 2,
    });
    expect(created.status).toBe(200);
    this.values.priceId = created.body.id;
  }

  private async ensureKeyAndMember(): Promise<void> {
    const keys = await this.api.get<{ apiKeys: { id: string; name: string }[] }>("/v1/api-keys");
    const key = keys.body.apiKeys.find((k) => k.id === this.values.apiKeyId);
    if (!key) {
      const created = await this.api.post<{ id: string }>("/v1/api-keys", {
        name: "fuzz victim",
        role: "viewer",
      });
      expect(created.status).toBe(201);
      this.values.apiKeyId = created.body.id;
    }
    const members = await listAll<{ id: string }>(this.api, "/v1/members");
    if (!members.some((m) => m.id === this.values.memberId)) {
      const created = await this.api.post<{ id: string }>("/v1/members", {
        email: `fuzz-${randomBytes(4).toString("hex")}@example.com`,
        role: "viewer",
      });
      expect(created.status).toBe(201);
      this.values.memberId = created.body.id;
    }
  }

  /** Two experiments of the dataset (a case may delete or finish one), the first with a result. */
  private async ensureExperiments(project: string, base: string): Promise<void> {
    let withResult = false;
    for (const role of ["experimentId", "otherExperimentId"] as const) {
      const id = this.values[role];
      const found = id
        ? await this.api.get<{ status: string; results: number }>(`/v1/projects/${project}/experiments/${id}`)
        : undefined;
      if (found?.status === 200 && found.body.status === "running") {
        if (role === "experimentId") withResult = found.body.results > 0;
        continue;
      }
      const created = await this.api.post<{ id: string }>(`${base}/experiments`, {
        name: `fuzz ${role}`,
        evaluators: [{ name: "exact", kind: "exact_match" }],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      this.values[role] = created.body.id;
    }
    // Recorded once per experiment, not before every case: a case's own writes are what it checks.
    if (withResult) return;
    const recorded = await this.api.post(
      `/v1/projects/${project}/experiments/${this.values.experimentId}/results`,
      {
        results: [{ rowId: "r1", output: "answer r1" }],
      },
    );
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
  }

  private async importInto(base: string): Promise<string> {
    const response = await fetch(`${this.baseUrl}${base}/imports`, {
      method: "POST",
      headers: { authorization: `Bearer ${this.key}`, "content-type": "application/x-ndjson" },
      body: '{"input":"imported"}\n',
    });
    expect(response.status).toBe(202);
    const { importId } = (await response.json()) as { importId: string };
    await this.waitForImport(base, importId);
    return importId;
  }

  /** Waits until an import accepted with 202 has finished, so that what it writes is not blamed on a later case. */
  async waitForImport(base: string, importId: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const answer = await this.api.get<{ state: string }>(`${base}/imports/${importId}`);
      if (answer.status !== 200 || (answer.body.state !== "receiving" && answer.body.state !== "running"))
        return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`import ${importId} did not finish`);
  }

  /**
   * Everything of the organisation a request could change, read through the API: projects, the
   * project's datasets (with their versions and columns), the rows and columns of the dataset under
   * test, traces, keys and members. Read-only fields that reads update (a key's lastUsedAt) are left out.
   */
  async fingerprint(): Promise<string> {
    const project = this.values.projectSlug;
    const base = `/v1/projects/${project}/datasets/${this.values.datasetSlug}`;
    const experiments = `/v1/projects/${project}/experiments`;
    const [projects, datasets, rows, columns, traces, keys, members, account, runs, results] =
      await Promise.all([
        listAll(this.api, "/v1/projects"),
        listAll<Dataset>(this.api, `/v1/projects/${project}/datasets`),
        listAll<Row>(this.api, `${base}/rows`, "limit=200"),
        this.api.get(`${base}/columns?includeRemoved=true`).then((r) => r.body),
        this.api.post<{ items: { traceId: string; spanCount: number }[] }>(
          `/v1/projects/${project}/traces/list`,
          { limit: 200 },
        ),
        this.api.get<{ apiKeys: { id: string; name: string; role: string }[] }>("/v1/api-keys"),
        listAll<{ id: string; email: string; role: string }>(this.api, "/v1/members"),
        this.api.get("/v1/account").then((r) => r.body),
        listAll(this.api, `${base}/experiments`),
        listAll(this.api, `${experiments}/${this.values.experimentId}/results`),
      ]);
    return JSON.stringify({
      projects,
      datasets,
      rows,
      columns,
      traces: traces.body.items.map((t) => [t.traceId, t.spanCount]),
      keys: keys.body.apiKeys.map(({ id, name, role }) => [id, name, role]),
      members: members.map(({ id, email, role }) => [id, email, role]),
      account,
      runs,
      results,
    });
  }

  /** Every dataset of the organisation has versions 1..N, N its current version: no gap, no repeat. */
  async auditVersions(): Promise<string[]> {
    const problems: string[] = [];
    for (const project of await listAll<{ slug: string }>(this.api, "/v1/projects")) {
      for (const dataset of await listAll<Dataset>(this.api, `/v1/projects/${project.slug}/datasets`)) {
        const base = `/v1/projects/${project.slug}/datasets/${dataset.slug}`;
        const versions = (await listAll<{ version: number }>(this.api, `${base}/versions`, "limit=200")).map(
          (v) => v.version,
        );
        const expected = Array.from({ length: dataset.version }, (_, i) => dataset.version - i);
        if (JSON.stringify(versions) !== JSON.stringify(expected)) {
          problems.push(`${base}: at version ${dataset.version}, versions ${versions.join(",")}`);
        }
      }
    }
    return problems;
  }
}
