import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, listAll, makeDataset, makeProject, type Page, type Row } from "./factories";
import { type Client, client } from "./http";
import { type Target, targets } from "./targets";

/**
 * Rows hold whatever clients stored, up to the gateway's body limit at a time, while a reply between
 * services is one NATS message (1 MiB by default). Lists end pages early rather than fail, and what
 * cannot fit is answered with an error that says so: never a timeout, never a service that stops.
 */
describe.each(targets())("large rows (%s)", (name, start) => {
  let target: Target;
  let api: Client;
  let base: string;
  const cell = (n: number) => `${n}`.padEnd(700_000, "x");

  beforeAll(async () => {
    target = await start();
    api = client(target.baseUrl, target.ownerKey);
    ({ base } = await makeDataset(api, await makeProject(api)));
    for (let n = 0; n < 3; n++) {
      const inserted = await api.post(`${base}/rows`, { rows: [{ id: `r${n}`, input: cell(n) }] });
      expect(inserted.status).toBe(201);
    }
  });
  afterAll(async () => {
    await target?.stop();
  });

  it("lists rows that together outweigh a message, a page at a time, each row once", async () => {
    const first = await api.get<Page<Row>>(`${base}/rows?limit=50`);
    expect(first.status).toBe(200);
    expect(first.body.items.length).toBeLessThan(3);
    expect(first.body.hasMore).toBe(true);
    const rows = await listAll<Row>(api, `${base}/rows`, "limit=50");
    expect(rows.map((row) => row.rowId).sort()).toEqual(["r0", "r1", "r2"]);
    for (const row of rows) expect(row.input).toBe(cell(Number(row.rowId.slice(1))));
    expect((await fetch(`${target.baseUrl}/readyz`)).status).toBe(200);
  });

  it("answers an edit too large to pass between services with 413 and why, never as a service that is down", async () => {
    // Under the gateway's body limit (1 MiB), over what a bus message holds once the context is added.
    const edit = api.patch(`${base}/rows/r0`, { expectedOutput: "y".repeat(1_046_000) });
    if (name === "embedded") {
      // One process: nothing between the gateway and the services limits a message.
      expect((await edit).status).toBe(200);
    } else {
      expect((await expectError(edit, 413, "payload_too_large")).error).toMatch(
        /^The request is \d+ bytes once it carries its context, more than the \d+ bytes/,
      );
      const row = await api.get<Row>(`${base}/rows/r0`);
      expect(row.status).toBe(200);
      expect(row.body.expectedOutput).toBeNull();
    }
    expect((await fetch(`${target.baseUrl}/readyz`)).status).toBe(200);
  });

  it("answers a row too large to return with an error that says so, at once, and goes on serving", async () => {
    // Two edits make a row of three 700 kB cells: more than one message holds.
    for (const field of ["output", "expectedOutput"]) {
      const edit = await api.patch(`${base}/rows/r1`, { [field]: cell(1) });
      expect(edit.status).toBe(200);
    }
    const started = performance.now();
    const row = api.get(`${base}/rows/r1`);
    if (name === "embedded") {
      expect((await row).status).toBe(200);
    } else {
      const error = await expectError(row, 500, "internal_error");
      expect(error.error).toMatch(/^The answer is \d+ bytes, more than the \d+ bytes a message/);
      expect(performance.now() - started).toBeLessThan(5_000);
    }
    expect((await api.get(`${base}/rows/r2`)).status).toBe(200);
    expect((await fetch(`${target.baseUrl}/readyz`)).status).toBe(200);
  });
});
