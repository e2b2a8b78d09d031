import { parquetMetadata } from "hyparquet";
import { describe, expect, it } from "vitest";
import { type ErrorBody, finishedImport, type Import, makeDataset, versionOf } from "../factories";
import { projectForSuite, targets } from "../targets";

/** A dataset has at most this many custom columns; a file's record at most this many fields. */
const MAX_CUSTOM_COLUMNS = 1000;
const MAX_FILE_FIELDS = MAX_CUSTOM_COLUMNS + 16;

/** A CSV with an id and `width` other fields named f0…, and one row. */
const wideCsv = (width: number) => {
  const names = Array.from({ length: width }, (_, i) => `f${i}`);
  return `id,${names.join(",")}\r\nr1,${names.map((_, i) => i).join(",")}\r\n`;
};

describe.each(targets())("file and column limits (%s)", (_name, start) => {
  const suite = projectForSuite(start);

  const emptyDataset = async () => (await makeDataset(suite.api, suite.project)).base;

  async function upload(base: string, body: string | Uint8Array, type: string, query = "") {
    const response = await fetch(`${suite.target.baseUrl}${base}/imports${query}`, {
      method: "POST",
      headers: { authorization: `Bearer ${suite.target.ownerKey}`, "content-type": type },
      body,
    });
    return { status: response.status, body: (await response.json()) as Import & Partial<ErrorBody> };
  }

  async function imported(base: string, body: string | Uint8Array, type: string, query = "") {
    const first = await upload(base, body, type, query);
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    return finishedImport(suite.api, base, first.body.importId);
  }

  const customColumns = async (base: string) =>
    (
      await suite.api.get<{ columns: { identifier: string; source: { kind: string } }[] }>(`${base}/columns`)
    ).body.columns.filter((column) => column.source.kind === "custom");

  it("refuses a CSV header of 100,000 fields at once, and keeps answering everyone else meanwhile", async () => {
    const base = await emptyDataset();
    const file = wideCsv(100_000);
    expect(file.length).toBeGreaterThan(800_000);
    // Another client asks /healthz all along; each answer's wait is noted.
    let uploading = true;
    const waits: number[] = [];
    const health = (async () => {
      while (uploading) {
        const asked = performance.now();
        const answer = await fetch(`${suite.target.baseUrl}/healthz`);
        await answer.arrayBuffer();
        expect(answer.status).toBe(200);
        waits.push(performance.now() - asked);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const sent = performance.now();
    const refused = await upload(base, file, "text/csv");
    const took = performance.now() - sent;
    uploading = false;
    await health;
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: "too_many_columns",
      details: { line: 1, limit: MAX_FILE_FIELDS },
    });
    expect(refused.body.error).toMatch(/^Line 1: the header row has more than 1016 fields; a file may have/);
    expect(took).toBeLessThan(1_000);
    expect(waits.length).toBeGreaterThan(0);
    expect(Math.max(...waits)).toBeLessThan(500);
    expect(await versionOf(suite.api, base)).toBe(0);
    expect(await customColumns(base)).toEqual([]);
  });

  it("refuses a JSONL object with more fields than a file may have, its custom object counted", async () => {
    const base = await emptyDataset();
    const custom = Object.fromEntries(Array.from({ length: MAX_FILE_FIELDS }, (_, i) => [`k${i}`, i]));
    const refused = await upload(base, `${JSON.stringify({ input: 1, custom })}\n`, "application/x-ndjson");
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: "too_many_columns",
      details: { line: 1, limit: MAX_FILE_FIELDS },
    });
    expect(await versionOf(suite.api, base)).toBe(0);
  });

  it("takes a dataset to exactly 1,000 custom columns, by import, and refuses the 1,001st by any way", async () => {
    const base = await emptyDataset();
    const done = await imported(base, wideCsv(MAX_CUSTOM_COLUMNS), "text/csv");
    expect(done).toMatchObject({ state: "succeeded", rowsInserted: 1 });
    const columns = await customColumns(base);
    expect(columns).toHaveLength(MAX_CUSTOM_COLUMNS);

    const more = await suite.api.post<ErrorBody>(`${base}/columns`, { name: "one more" });
    expect(more.status).toBe(400);
    expect(more.body).toMatchObject({ code: "too_many_columns", details: { limit: MAX_CUSTOM_COLUMNS } });
    expect(more.body.error).toMatch(/at most 1000; remove a column you no longer need first/);

    // A column removed makes room for one, and then the removed one cannot come back.
    const first = columns[0] as { identifier: string };
    expect((await suite.api.delete(`${base}/columns/${first.identifier}`)).status).toBe(204);
    expect((await suite.api.post(`${base}/columns`, { name: "one more" })).status).toBe(201);
    const restore = await suite.api.post<ErrorBody>(`${base}/columns/${first.identifier}/restore`);
    expect(restore.status).toBe(400);
    expect(restore.body.code).toBe("too_many_columns");

    // A file that brings one new field to the full dataset adds nothing.
    const refused = await upload(base, "id,input,brand new\r\nr2,x,y\r\n", "text/csv");
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "too_many_columns", details: { limit: MAX_CUSTOM_COLUMNS } });
    expect(await versionOf(suite.api, base)).toBe(1);
    expect(await customColumns(base)).toHaveLength(MAX_CUSTOM_COLUMNS);
  });

  it("refuses a file that would make 1,001 custom columns, creating none", async () => {
    const base = await emptyDataset();
    const refused = await upload(base, wideCsv(MAX_CUSTOM_COLUMNS + 1), "text/csv");
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "too_many_columns", details: { limit: MAX_CUSTOM_COLUMNS } });
    // Found on a later line of JSONL, the import fails as a job, and writes nothing either.
    const fields = (from: number, to: number) =>
      Object.fromEntries(Array.from({ length: to - from }, (_, i) => [`g${from + i}`, i]));
    const jsonl = `${JSON.stringify({ id: "a", ...fields(0, 600) })}\n${JSON.stringify({ id: "b", ...fields(600, 1001) })}\n`;
    const failed = await imported(base, jsonl, "application/x-ndjson");
    expect(failed.state).toBe("failed");
    expect(failed.error).toMatchObject({ code: "too_many_columns", details: { limit: MAX_CUSTOM_COLUMNS } });
    expect(await versionOf(suite.api, base)).toBe(0);
    expect(await customColumns(base)).toEqual([]);
  });

  it("exports a dataset at the limit, 1,000 custom columns and the built-in ones, as CSV, JSONL and Parquet, and reads each back unchanged", async () => {
    const base = await emptyDataset();
    const names = Array.from({ length: MAX_CUSTOM_COLUMNS }, (_, i) => `f${i}`);
    const lines = ["r1", "r2", "r3"].map((id, row) =>
      [id, `"{""q"":${row}}"`, ...names.map((_, i) => (i % 3 === row ? "" : `v${row}.${i}`))].join(","),
    );
    const file = `id,input,${names.join(",")}\r\n${lines.join("\r\n")}\r\n`;
    expect(await imported(base, file, "text/csv")).toMatchObject({ state: "succeeded", rowsInserted: 3 });
    expect(await customColumns(base)).toHaveLength(MAX_CUSTOM_COLUMNS);
    const types = {
      csv: "text/csv",
      jsonl: "application/x-ndjson",
      parquet: "application/vnd.apache.parquet",
    };
    for (const [format, type] of Object.entries(types)) {
      const exported = await fetch(`${suite.target.baseUrl}${base}/export?format=${format}`, {
        headers: { authorization: `Bearer ${suite.target.ownerKey}` },
      });
      const body = new Uint8Array(await exported.arrayBuffer());
      expect(exported.status, `${format}: ${new TextDecoder().decode(body.slice(0, 300))}`).toBe(200);
      if (format === "csv") {
        const header = new TextDecoder().decode(body).split("\r\n")[0] as string;
        expect(header.split(",")).toHaveLength(1 + 4 + MAX_CUSTOM_COLUMNS);
      } else if (format === "jsonl") {
        const rows = new TextDecoder()
          .decode(body)
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line));
        expect(rows).toHaveLength(3);
        expect(Object.keys(rows[0].custom).length).toBeGreaterThan(600);
      } else {
        expect(parquetMetadata(body.buffer).schema[0]?.num_children).toBe(1 + 4 + MAX_CUSTOM_COLUMNS);
      }
      const same = await imported(base, body, type, "?mode=update");
      expect(same, format).toMatchObject({ state: "succeeded", versionId: null, version: 1, rowsUpdated: 0 });
    }
  });

  it("refuses at once, with 415, a file whose first bytes show it is not what its Content-Type says", async () => {
    const base = await emptyDataset();
    const png = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
    ]);
    const garbage = new Uint8Array(
      Array.from({ length: 512 }, (_, i) => ((i * 37) % 7 === 0 ? 0 : 0x41 + (i % 26))),
    );
    const cases: [Uint8Array | string, string, RegExp][] = [
      [png, "text/csv", /^The file looks like a PNG image, not CSV text$/],
      [
        png,
        "application/vnd.apache.parquet",
        /^The file is not a Parquet file: a Parquet file begins with "PAR1", and this one looks like a PNG image/,
      ],
      [
        "id,input\nr1,not parquet\n",
        "application/vnd.apache.parquet",
        /^The file is not a Parquet file: .* this one does not;/,
      ],
      [
        garbage,
        "application/x-ndjson",
        /^The file holds a NUL byte \(at byte 1\): it is binary, not JSONL text/,
      ],
      [
        new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]),
        "text/csv",
        /gzip file, not CSV text; send the file itself, or the gzip with Content-Encoding: gzip/,
      ],
      [
        new Uint8Array([0x50, 0x41, 0x52, 0x31, 0, 0]),
        "application/json",
        /looks like a Parquet file, not JSON text; send it as application\/vnd.apache.parquet/,
      ],
    ];
    for (const [body, type, message] of cases) {
      const refused = await upload(base, body, type);
      expect(refused.status, `${type}: ${JSON.stringify(refused.body)}`).toBe(415);
      expect(refused.body.code).toBe("unsupported_media_type");
      expect(refused.body.error).toMatch(message);
      expect(refused.body.details).toMatchObject({ line: 1 });
    }
    expect(await versionOf(suite.api, base)).toBe(0);
  });

  it("fails a damaged Parquet file in the platform's own words, not the library's", async () => {
    const base = await emptyDataset();
    const cut = await imported(
      base,
      "PAR1 and then nothing that a footer needs",
      "application/vnd.apache.parquet",
    );
    expect(cut.state).toBe("failed");
    expect(cut.error).toMatchObject({ code: "validation_failed", details: { line: 1 } });
    expect(cut.error?.error).toBe(
      'The file is not a Parquet file that can be read: its footer (the file\'s metadata, which ends it with "PAR1") is missing or damaged; the file may be cut short, so upload it again whole',
    );
  });
});
