import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, client } from "./http";
import { type Target, targets } from "./targets";

interface RowPage {
  items: { rowId: string; input: unknown }[];
  nextCursor: string | null;
  hasMore: boolean;
}

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
    const project = await api.post<{ slug: string }>("/v1/projects", { name: `Large ${Date.now()}` });
    const dataset = await api.post<{ slug: string }>(`/v1/projects/${project.body.slug}/datasets`, {
      name: "large",
    });
    base = `/v1/projects/${project.body.slug}/datasets/${dataset.body.slug}`;
    for (let n = 0; n < 3; n++) {
      const inserted = await api.post(`${base}/rows`, { rows: [{ id: `r${n}`, input: cell(n) }] });
      expect(inserted.status).toBe(201);
    }
  });
  afterAll(async () => {
    await target?.stop();
  });

  it("lists rows that together outweigh a message, a page at a time, each row once", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const page = await api.get<RowPage>(`${base}/rows?limit=50${query}`);
      expect(page.status).toBe(200);
      for (const row of page.body.items) {
        expect(row.input).toBe(cell(Number(row.rowId.slice(1))));
        seen.push(row.rowId);
      }
      expect(page.body.hasMore).toBe(page.body.nextCursor !== null);
      cursor = page.body.nextCursor;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(seen.sort()).toEqual(["r0", "r1", "r2"]);
    expect(pages).toBeGreaterThan(1);
    expect((await fetch(`${target.baseUrl}/readyz`)).status).toBe(200);
  });

  it("answers an edit too large to pass between services with 413 and why, never as a service that is down", async () => {
    // Under the gateway's body limit (1 MiB), over what a bus message holds once the context is added.
    const edit = await api.patch<{ code: string; error: string }>(`${base}/rows/r0`, {
      expectedOutput: "y".repeat(1_046_000),
    });
    if (name === "embedded") {
      // One process: nothing between the gateway and the services limits a message.
      expect(edit.status).toBe(200);
    } else {
      expect(edit.status).toBe(413);
      expect(edit.body.code).toBe("payload_too_large");
      expect(edit.body.error).toMatch(
        /^The request is \d+ bytes once it carries its context, more than the \d+ bytes/,
      );
      const row = await api.get<{ expectedOutput: unknown }>(`${base}/rows/r0`);
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
    const row = await api.get<{ code: string; error: string }>(`${base}/rows/r1`);
    if (name === "embedded") {
      expect(row.status).toBe(200);
    } else {
      expect(row.status).toBe(500);
      expect(row.body.error).toMatch(/^The answer is \d+ bytes, more than the \d+ bytes a message/);
      expect(performance.now() - started).toBeLessThan(5_000);
    }
    expect((await api.get(`${base}/rows/r2`)).status).toBe(200);
    expect((await fetch(`${target.baseUrl}/readyz`)).status).toBe(200);
  });
});
