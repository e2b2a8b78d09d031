import { beforeAll, describe, expect, it } from "vitest";
import {
  expectError,
  finishedImport,
  listAll,
  makeDataset,
  type Page,
  type Row,
  versionOf,
} from "../factories";
import { datasetForSuite, targets } from "../targets";

/**
 * Rows hold whatever clients stored, up to the gateway's body limit at a time, while a reply between
 * services is one NATS message (1 MiB by default). A request that does not fit is answered with an
 * error that says so; a reply that does not fit travels in parts, so that every row that can be written
 * can be read back, in both modes alike. Lists end pages early rather than carry many large rows.
 */
describe.each(targets())("large rows (%s)", (name, start) => {
  const suite = datasetForSuite(start);
  const cell = (n: number) => `${n}`.padEnd(700_000, "x");

  beforeAll(async () => {
    for (let n = 0; n < 3; n++) {
      const inserted = await suite.api.post(`${suite.base}/rows`, {
        rows: [{ id: `r${n}`, input: cell(n) }],
      });
      expect(inserted.status).toBe(201);
    }
  });

  it("lists rows that together outweigh a message, a page at a time, each row once", async () => {
    const first = await suite.api.get<Page<Row>>(`${suite.base}/rows?limit=50`);
    expect(first.status).toBe(200);
    expect(first.body.items.length).toBeLessThan(3);
    expect(first.body.hasMore).toBe(true);
    const rows = await listAll<Row>(suite.api, `${suite.base}/rows`, "limit=50");
    expect(rows.map((row) => row.rowId).sort()).toEqual(["r0", "r1", "r2"]);
    for (const row of rows) expect(row.input).toBe(cell(Number(row.rowId.slice(1))));
    expect((await fetch(`${suite.target.baseUrl}/readyz`)).status).toBe(200);
  });

  it("answers an edit too large to pass between services with 413 and why, never as a service that is down", async () => {
    // Under the gateway's body limit (1 MiB), over what a bus message holds once the context is added.
    const edit = suite.api.patch(`${suite.base}/rows/r0`, { expectedOutput: "y".repeat(1_046_000) });
    if (name === "embedded") {
      // One process: nothing between the gateway and the services limits a message.
      expect((await edit).status).toBe(200);
    } else {
      expect((await expectError(edit, 413, "payload_too_large")).error).toMatch(
        /^The request is \d+ bytes once it carries its context, more than the \d+ bytes/,
      );
      const row = await suite.api.get<Row>(`${suite.base}/rows/r0`);
      expect(row.status).toBe(200);
      expect(row.body.expectedOutput).toBeNull();
    }
    expect((await fetch(`${suite.target.baseUrl}/readyz`)).status).toBe(200);
  });

  it("carries a row larger than a message whole on every read path, in both modes alike", async () => {
    // Two edits make a row of three 700 kB cells: more than one message holds.
    const before = await versionOf(suite.api, suite.base);
    for (const field of ["output", "expectedOutput"]) {
      const edit = await suite.api.patch(`${suite.base}/rows/r1`, { [field]: cell(1) });
      expect(edit.status).toBe(200);
    }
    const big = { rowId: "r1", input: cell(1), output: cell(1), expectedOutput: cell(1) };
    const one = await suite.api.get<Row>(`${suite.base}/rows/r1`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject(big);
    const old = await suite.api.get<Row>(`${suite.base}/rows/r1?version=${before}`);
    expect(old.body).toMatchObject({ input: cell(1), output: null });

    const listed = await listAll<Row>(suite.api, `${suite.base}/rows`, "limit=200");
    expect(listed.find((row) => row.rowId === "r1")).toMatchObject(big);
    const searched = await suite.api.get<Page<Row>>(`${suite.base}/rows?search=1xxx&present=expectedOutput`);
    expect(searched.status).toBe(200);
    expect(searched.body.items[0]).toMatchObject(big);

    const history = await suite.api.get<Page<{ cells: Record<string, unknown> }>>(
      `${suite.base}/rows/r1/history`,
    );
    expect(history.status).toBe(200);
    expect(history.body.items[0]?.cells).toMatchObject({ output: cell(1), expectedOutput: cell(1) });

    const diff = await suite.api.get<Page<{ rowId: string; before: Row; after: Row }>>(
      `${suite.base}/diff?from=${before}&to=${before + 2}`,
    );
    expect(diff.status).toBe(200);
    expect(diff.body.items).toHaveLength(1);
    expect(diff.body.items[0]?.after).toMatchObject({ output: cell(1), expectedOutput: cell(1) });

    const exported = await download(`${suite.base}/export?format=jsonl`);
    const lines = exported
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Row);
    expect(lines.find((row) => row.rowId === "r1")).toMatchObject(big);
    expect((await download(`${suite.base}/export?format=csv`)).length).toBeGreaterThan(3 * 700_000);
    expect((await fetch(`${suite.target.baseUrl}/readyz`)).status).toBe(200);
  });

  it("reads back a large row however it was written: batch edit, import, copy, restore", async () => {
    const batch = await suite.api.patch(`${suite.base}/rows`, { edits: [{ rowId: "r2", output: cell(2) }] });
    expect(batch.status).toBe(200);
    expect((await suite.api.get<Row>(`${suite.base}/rows/r2`)).body).toMatchObject({
      input: cell(2),
      output: cell(2),
    });

    // One line of a file, over a message by itself.
    const importId = await importFile(`{"id":"imp","input":"${"i".repeat(1_100_000)}"}\n`);
    const finished = await finishedImport(suite.api, suite.base, importId);
    expect(finished.state, JSON.stringify(finished.error)).toBe("succeeded");
    expect((await suite.api.get<Row>(`${suite.base}/rows/imp`)).body.input).toBe("i".repeat(1_100_000));
    expect((await suite.api.get<Page<Row>>(`${suite.base}/rows?limit=1`)).status).toBe(200);

    const { base: copies } = await makeDataset(suite.api, suite.project);
    const copied = await suite.api.post(`${suite.base}/rows/copy`, {
      to: { datasetSlug: copies.split("/").at(-1) },
      selection: { mode: "selected", rowIds: ["r2", "imp"] },
    });
    expect(copied.status).toBe(201);
    const inCopy = await listAll<Row>(suite.api, `${copies}/rows`);
    expect(inCopy.map((row) => row.output ?? row.input).sort()).toEqual([cell(2), "i".repeat(1_100_000)]);

    const withRow = await versionOf(suite.api, suite.base);
    const removed = await suite.api.delete(`${suite.base}/rows`, {
      selection: { mode: "selected", rowIds: ["r2"] },
    });
    expect(removed.status).toBe(200);
    const restored = await suite.api.post(`${suite.base}/versions/${withRow}/restore`, {});
    expect(restored.status).toBe(201);
    expect((await suite.api.get<Row>(`${suite.base}/rows/r2`)).body).toMatchObject({
      input: cell(2),
      output: cell(2),
    });
  });

  async function download(path: string): Promise<string> {
    const response = await fetch(`${suite.target.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${suite.target.ownerKey}` },
    });
    expect(response.status).toBe(200);
    return response.text();
  }

  async function importFile(body: string): Promise<string> {
    const response = await fetch(`${suite.target.baseUrl}${suite.base}/imports`, {
      method: "POST",
      headers: { authorization: `Bearer ${suite.target.ownerKey}`, "content-type": "application/x-ndjson" },
      body,
    });
    expect(response.status).toBe(202);
    return ((await response.json()) as { importId: string }).importId;
  }
});
