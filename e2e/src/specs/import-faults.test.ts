import { request as httpRequest } from "node:http";
import { Readable } from "node:stream";
import { openDatabase } from "@svc/db";
import { realInfra } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { auditVersions, storedRows } from "../audit";
import { rssMb } from "../edit-load";
import { client } from "../http";
import { startedForSuite, startPlatform, waitFor } from "../platform";

const infra = realInfra();

interface Import {
  importId: string;
  state: string;
  rowsRead: number;
  rowsInserted?: number;
  versionId?: string | null;
  version?: number;
  error?: { code: string; error: string };
}

/** What a succeeded import acknowledged: the version it made. */
const importVersion = (datasetId: string, done: Import) => ({
  datasetId,
  version: done.version ?? Number.NaN,
  versionId: done.versionId ?? undefined,
});

/** A JSONL file of `rows` rows, large enough that reading it takes the writer a few seconds. */
const fileOf = (rows: number) =>
  Array.from({ length: rows }, (_, i) =>
    JSON.stringify({ id: `r${i}`, input: { q: i, text: "x".repeat(60) } }),
  ).join("\n");

describe.runIf(infra)("an import under faults (distributed)", () => {
  const writerEnv = { SVC_IMPORT_ABANDONED_MS: "1500" };
  const platform = startedForSuite(() => startPlatform({ writers: 1, writerEnv: () => writerEnv }));

  async function makeDataset(name: string) {
    const api = client(platform.baseUrl, platform.ownerKey);
    const project = (await api.post<{ slug: string }>("/v1/projects", { name: `${name} ${Date.now()}` })).body
      .slug;
    const dataset = await api.post<{ slug: string; id: string }>(`/v1/projects/${project}/datasets`, {
      name,
    });
    return { api, base: `/v1/projects/${project}/datasets/${dataset.body.slug}`, datasetId: dataset.body.id };
  }

  /** The dataset's rows and version, and what its imports still hold staged. */
  async function stored(datasetId: string) {
    const handle = await openDatabase({ url: platform.databaseUrl, poolSize: 1 });
    try {
      const staged = await handle.db
        .selectFrom("import_rows")
        .innerJoin("imports", "imports.id", "import_rows.import_id")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("imports.dataset_id", "=", datasetId)
        .executeTakeFirstOrThrow();
      return { ...(await storedRows(platform.databaseUrl, datasetId)), staged: Number(staged.n) };
    } finally {
      await handle.close();
    }
  }

  it("writes nothing when the writer is SIGKILLed mid-import, and the retry with the same key imports once", async () => {
    const { api, base, datasetId } = await makeDataset("Killed import");
    const rows = 200_000;
    const file = fileOf(rows);
    const key = `import-kill-${Date.now()}`;
    const upload = () =>
      fetch(`${platform.baseUrl}${base}/imports`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${platform.ownerKey}`,
          "content-type": "application/x-ndjson",
          "idempotency-key": key,
        },
        body: file,
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as Import }));

    const first = await upload();
    expect(first.status).toBe(202);
    await waitFor("the import to be part-way", async () => {
      const now = await api.get<Import>(`${base}/imports/${first.body.importId}`);
      return now.body.rowsRead > 1000 ? now.body : undefined;
    });
    const victim = platform.processes.find((p) => p.name === "dataset-writer" && p.child.exitCode === null);
    victim?.child.kill("SIGKILL");
    await victim?.exited;
    await platform.start("dataset-writer", writerEnv);

    const failed = await waitFor(
      "the next writer to fail the abandoned import",
      async () => {
        const now = await api.get<Import>(`${base}/imports/${first.body.importId}`);
        return now.body.state === "failed" ? now.body : undefined;
      },
      30_000,
    );
    expect(failed.error?.code).toBe("service_unavailable");
    expect(failed.error?.error).toMatch(/nothing was written/);
    expect(await stored(datasetId)).toEqual({ rows: 0, staged: 0, version: 0 });

    const retry = await upload();
    expect(retry.status).toBe(202);
    expect(retry.body.importId).not.toBe(first.body.importId);
    const done = await waitFor(
      "the retry to finish",
      async () => {
        const now = await api.get<Import>(`${base}/imports/${retry.body.importId}`);
        return now.body.state === "succeeded" || now.body.state === "failed" ? now.body : undefined;
      },
      60_000,
    );
    expect(done).toMatchObject({ state: "succeeded", rowsInserted: rows });
    // The staged copy is cleared just after the import is recorded as done.
    await expect.poll(() => stored(datasetId), { timeout: 15_000 }).toEqual({ rows, staged: 0, version: 1 });
    // The key now belongs to the import that succeeded: asking again answers it, importing nothing more.
    const again = await upload();
    expect(again.body.importId).toBe(retry.body.importId);
    expect(await stored(datasetId)).toEqual({ rows, staged: 0, version: 1 });
    await auditVersions(platform.databaseUrl, [importVersion(datasetId, done)]);
  });

  it("records nothing for an upload the client drops half-way", async () => {
    const { base, datasetId } = await makeDataset("Dropped upload");
    const url = new URL(`${platform.baseUrl}${base}/imports`);
    const half = Buffer.from(fileOf(20_000));
    await new Promise<void>((resolve) => {
      const request = httpRequest(url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${platform.ownerKey}`,
          "content-type": "application/x-ndjson",
          "content-length": String(half.length * 2),
        },
      });
      request.on("error", () => resolve());
      request.on("response", () => resolve());
      request.write(half, () => {
        setTimeout(() => {
          request.destroy();
          resolve();
        }, 200);
      });
    });
    // The gateway gave up on the upload: no import was recorded, and nothing reached the dataset.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const handle = await openDatabase({ url: platform.databaseUrl, poolSize: 1 });
    try {
      const imports = await handle.db
        .selectFrom("imports")
        .select("id")
        .where("dataset_id", "=", datasetId)
        .execute();
      expect(imports).toEqual([]);
    } finally {
      await handle.close();
    }
    expect(await stored(datasetId)).toEqual({ rows: 0, staged: 0, version: 0 });
    await auditVersions(platform.databaseUrl);
  });

  it("imports a 200 MB file with every process's memory bounded", async () => {
    const { api, base, datasetId } = await makeDataset("Big file");
    let done: Import | undefined;
    // 21,000 rows of 10 kB each, generated as they are sent: nothing holds the file, not even the
    // test. Each row's text differs, so that no layer could keep it cheaply.
    const rows = 21_000;
    const filler = "curated answer text ".repeat(550).slice(0, 10_000);
    const lineOf = (i: number) =>
      `r${String(i).padStart(5, "0")},${filler.slice(0, 9_990)}${String(i).padStart(10, "0")}\n`;
    const header = "id,input\n";
    const bytes = header.length + rows * lineOf(0).length;
    expect(bytes).toBeGreaterThan(200 * 2 ** 20);
    async function* file() {
      yield Buffer.from(header);
      for (let from = 0; from < rows; from += 100) {
        yield Buffer.from(Array.from({ length: 100 }, (_, k) => lineOf(from + k)).join(""));
      }
    }

    // The processes running now (an earlier test killed a writer and started another).
    const sample = () => {
      const now = new Map<string, number>();
      for (const p of platform.processes) {
        try {
          now.set(p.name, rssMb(p.child.pid ?? 0));
        } catch {
          // A process that has gone.
        }
      }
      return now;
    };
    const before = sample();
    const peak = new Map(before);
    const sampler = setInterval(() => {
      for (const [name, mb] of sample()) peak.set(name, Math.max(peak.get(name) ?? 0, mb));
    }, 50);
    try {
      const response = await fetch(`${platform.baseUrl}${base}/imports`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${platform.ownerKey}`,
          "content-type": "text/csv",
          "content-length": String(bytes),
        },
        body: Readable.toWeb(Readable.from(file())) as ReadableStream,
        duplex: "half",
      } as RequestInit);
      expect(response.status).toBe(202);
      const { importId } = (await response.json()) as Import;
      done = await waitFor(
        "the big import to finish",
        async () => {
          const now = await api.get<Import>(`${base}/imports/${importId}`);
          return now.body.state === "succeeded" || now.body.state === "failed" ? now.body : undefined;
        },
        180_000,
      );
      expect(done, JSON.stringify(done.error)).toMatchObject({ state: "succeeded", rowsInserted: rows });
    } finally {
      clearInterval(sampler);
    }
    const grew = [...peak].map(([name, mb]) => ({ name, before: before.get(name) ?? 0, peak: mb }));
    console.log(
      `200 MB import, RSS before → peak: ${grew.map((p) => `${p.name} ${p.before.toFixed(0)} → ${p.peak.toFixed(0)} MB`).join(", ")}`,
    );
    // Holding the file, or most of it, would show here: the allowance is well under its 200 MB.
    for (const p of grew) {
      expect(p.peak - p.before, `${p.name} grew by ${(p.peak - p.before).toFixed(0)} MB`).toBeLessThan(120);
    }
    // The staged copy is cleared, a piece at a time, just after the import is recorded as done.
    await expect.poll(() => stored(datasetId), { timeout: 15_000 }).toEqual({ rows, staged: 0, version: 1 });
    await auditVersions(platform.databaseUrl, done ? [importVersion(datasetId, done)] : []);
  }, 240_000);
});
