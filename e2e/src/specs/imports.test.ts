import { request as httpRequest } from "node:http";
import { parquetWriteBuffer } from "hyparquet-writer";
import { describe, expect, it } from "vitest";
import { finishedImport, type Import, makeDataset, type Row } from "../factories";
import { projectForSuite, targets } from "../targets";

describe.each(targets())("file imports (%s)", (_name, start) => {
  const suite = projectForSuite(start);

  /** A new empty dataset's path. */
  const emptyDataset = async () => (await makeDataset(suite.api, suite.project)).base;

  /** Uploads a file; returns the first answer (status and body). */
  async function upload(
    base: string,
    body: string | Uint8Array,
    type: string,
    query = "",
    headers: Record<string, string> = {},
  ) {
    const response = await fetch(`${suite.target.baseUrl}${base}/imports${query}`, {
      method: "POST",
      headers: { authorization: `Bearer ${suite.target.ownerKey}`, "content-type": type, ...headers },
      body,
    });
    return {
      status: response.status,
      location: response.headers.get("location"),
      body: (await response.json()) as Import & { code?: string; error?: unknown },
    };
  }

  /** Uploads a file and waits for the import to end. */
  async function imported(
    base: string,
    body: string | Uint8Array,
    type: string,
    query = "",
    headers: Record<string, string> = {},
  ) {
    const first = await upload(base, body, type, query, headers);
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.location).toBe(`${base}/imports/${first.body.importId}`);
    return finishedImport(suite.api, base, first.body.importId);
  }

  async function rows(base: string): Promise<Row[]> {
    return (await suite.api.get<{ items: Row[] }>(`${base}/rows?limit=100&sortDirection=asc`)).body.items;
  }
  const version = async (base: string) => (await suite.api.get<{ version: number }>(base)).body.version;
  const download = async (base: string, format: string) =>
    (
      await fetch(`${suite.target.baseUrl}${base}/export?format=${format}`, {
        headers: { authorization: `Bearer ${suite.target.ownerKey}` },
      })
    ).text();

  it("imports a CSV with quotes, line breaks, backslashes, tabs, unicode and JSON cells as one version, new columns included", async () => {
    const base = await emptyDataset();
    const csv =
      'id,input,expected_output,Topic\r\nq1,"Capital of ""France""?\nAnswer briefly.",Paris,géo\\gra\tphie\r\nq2,"{""q"":""2+2""}",4,\r\nq3,日本の首都は?,"""東京""",null\r\n';
    const done = await imported(base, csv, "text/csv");
    expect(done).toMatchObject({
      state: "succeeded",
      format: "csv",
      mode: "insert",
      rowsRead: 3,
      version: 1,
      rowsInserted: 3,
    });
    expect(done.bytesRead).toBe(new TextEncoder().encode(csv).byteLength);
    const columns = (
      await suite.api.get<{ columns: { identifier: string; name: string }[] }>(`${base}/columns`)
    ).body.columns;
    const topic = columns.find((column) => column.name === "Topic")?.identifier as string;
    expect(topic).toBeDefined();
    expect(
      (await rows(base)).map(({ rowId, input, expectedOutput, custom }) => ({
        rowId,
        input,
        expectedOutput,
        custom,
      })),
    ).toEqual([
      {
        rowId: "q1",
        input: 'Capital of "France"?\nAnswer briefly.',
        expectedOutput: "Paris",
        custom: { [topic]: "géo\\gra\tphie" },
      },
      { rowId: "q2", input: { q: "2+2" }, expectedOutput: 4, custom: {} },
      { rowId: "q3", input: "日本の首都は?", expectedOutput: "東京", custom: { [topic]: null } },
    ]);
    const made = await suite.api.get<{ operation: string; rowsInserted: number }>(`${base}/versions/1`);
    expect(made.body).toMatchObject({ operation: "import", rowsInserted: 3 });
  });

  it("keeps the CSV fields named in textFields as the text written, and types the others", async () => {
    const base = await emptyDataset();
    const csv = 'id,input,expected_output,code\r\nk1,42,42,true\r\nk2,null,null,"{""a"":1}"\r\nk3,\'=1,,\r\n';
    const query = `?textFields=${encodeURIComponent(JSON.stringify(["input", "code"]))}`;
    const done = await imported(base, csv, "text/csv", query);
    expect(done).toMatchObject({ state: "succeeded", rowsInserted: 3 });
    const columns = (
      await suite.api.get<{ columns: { identifier: string; name: string }[] }>(`${base}/columns`)
    ).body.columns;
    const code = columns.find((column) => column.name === "code")?.identifier as string;
    expect(
      (await rows(base)).map(({ rowId, input, expectedOutput, custom }) => [
        rowId,
        input,
        expectedOutput,
        custom,
      ]),
    ).toEqual([
      ["k1", "42", 42, { [code]: "true" }],
      ["k2", "null", null, { [code]: '{"a":1}' }],
      // The apostrophe before a formula still goes, and an empty field is still no value.
      ["k3", "=1", null, {}],
    ]);
    const jsonl = await upload(base, '{"input":"a"}\n', "application/x-ndjson", query);
    expect(jsonl.status).toBe(400);
    expect(String(jsonl.body.error)).toMatch(/^textFields is for CSV files/);
    const bad = await upload(base, "id,input\nr1,a\n", "text/csv", "?textFields=input");
    expect(bad.status).toBe(400);
    expect(String(bad.body.error)).toMatch(/textFields.*JSON array of file field names/);
  });

  it("imports JSONL and a JSON array, with a map and an id field", async () => {
    const base = await emptyDataset();
    const jsonl =
      '{"key":"a","question":"Why?","answer":{"because":true},"level":"easy"}\n{"key":"b","question":"How?","level":2}\n';
    const map = encodeURIComponent(
      JSON.stringify({ question: "input", answer: "expectedOutput", level: "new:Difficulty" }),
    );
    const done = await imported(base, jsonl, "application/x-ndjson", `?map=${map}&idField=key`);
    expect(done).toMatchObject({ state: "succeeded", rowsInserted: 2 });
    const difficulty = (
      await suite.api.get<{ columns: { identifier: string; name: string }[] }>(`${base}/columns`)
    ).body.columns.find((column) => column.name === "Difficulty")?.identifier as string;
    expect(
      (await rows(base)).map(({ rowId, input, expectedOutput, custom }) => [
        rowId,
        input,
        expectedOutput,
        custom,
      ]),
    ).toEqual([
      ["a", "Why?", { because: true }, { [difficulty]: "easy" }],
      ["b", "How?", null, { [difficulty]: 2 }],
    ]);
    const json = JSON.stringify([{ input: "third", Difficulty: "hard" }, { input: "fourth" }]);
    const second = await imported(base, json, "application/json");
    expect(second).toMatchObject({ state: "succeeded", version: 2, rowsInserted: 2 });
    const all = await rows(base);
    expect(all.slice(2).map((row) => [row.input, row.custom[difficulty]])).toEqual([
      ["third", "hard"],
      ["fourth", undefined],
    ]);
  });

  it("round-trips an export: unchanged it makes no version; one edited cell makes one version with that cell", async () => {
    const base = await emptyDataset();
    const column = (await suite.api.post<{ identifier: string }>(`${base}/columns`, { name: "Note" })).body
      .identifier;
    await suite.api.post(`${base}/rows`, {
      rows: [
        {
          id: "r1",
          input: "42",
          output: "",
          expectedOutput: null,
          metadata: { tags: ["a", "b"] },
          custom: { [column]: 'line\nbreak, "quoted"' },
        },
        {
          id: "r2",
          input: { nested: { deep: [1, 2.5, null] } },
          output: "true",
          expectedOutput: "null",
          custom: { [column]: null },
        },
        { id: "r3", input: " spaced ", output: 7, custom: {} },
      ],
    });
    for (const [format, type] of [
      ["csv", "text/csv"],
      ["jsonl", "application/x-ndjson"],
    ] as const) {
      const exported = await download(base, format);
      const same = await imported(base, exported, type, "?mode=update");
      expect(same, format).toMatchObject({ state: "succeeded", versionId: null, version: 1, rowsUpdated: 0 });
    }
    const csv = await download(base, "csv");
    const edited = csv.replace('r3," spaced ",7', 'r3," spaced ",8');
    expect(edited).not.toBe(csv);
    const done = await imported(base, edited, "text/csv", "?mode=update");
    expect(done).toMatchObject({ state: "succeeded", version: 2, rowsUpdated: 1 });
    const diff = await suite.api.get<{ items: { rowId: string; change: string }[] }>(
      `${base}/diff?from=1&to=2`,
    );
    expect(diff.body.items.map((entry) => [entry.rowId, entry.change])).toEqual([["r3", "modified"]]);
    expect((await suite.api.get<Row>(`${base}/rows/r3`)).body.output).toBe(8);
  });

  it("counts the rows an import adds, and keeps the count through an import that updates", async () => {
    const base = await emptyDataset();
    await suite.api.post(`${base}/rows`, {
      rows: [
        { id: "r1", input: "a" },
        { id: "r2", input: "b" },
      ],
    }); // v1: 2
    const added = await imported(
      base,
      '{"id":"n1","input":"c"}\n{"id":"n2","input":"d"}\n{"id":"n3","input":"e"}\n',
      "application/x-ndjson",
    );
    expect(added).toMatchObject({ state: "succeeded", version: 2, rowsInserted: 3 }); // v2: 5
    const changed = await imported(
      base,
      '{"id":"r1","input":"a2"}\n{"id":"n3","input":"e2"}\n',
      "application/x-ndjson",
      "?mode=update",
    );
    expect(changed).toMatchObject({ state: "succeeded", version: 3, rowsUpdated: 2 }); // v3: 5
    expect((await suite.api.get<{ version: number; rows: number }>(base)).body).toMatchObject({
      version: 3,
      rows: 5,
    });
    const versions = await suite.api.get<{ items: { version: number; rows: number }[] }>(`${base}/versions`);
    expect(versions.body.items.map(({ version, rows }) => [version, rows])).toEqual([
      [3, 5],
      [2, 5],
      [1, 2],
    ]);
  });

  /**
   * Why a file was refused: at once (400, when the start of the file shows it, as read before the
   * import is accepted) or by the import job, with the same code, message and details either way.
   */
  async function refusal(base: string, body: string | Uint8Array, type: string, query = "") {
    const first = await upload(base, body, type, query);
    if (first.status === 202) {
      const done = await finishedImport(suite.api, base, first.body.importId);
      expect(done.state, JSON.stringify(body)).toBe("failed");
      return done.error;
    }
    expect(first.status, JSON.stringify(first.body)).toBe(400);
    const { code, error, details } = first.body as unknown as NonNullable<Import["error"]>;
    return { code, error, ...(details ? { details } : {}) };
  }

  /** A JSONL file of `rows` rows `r0`, `r1`, …, whose line `line` has the id `id` instead. */
  const longFile = (rows: number, line: number, id: string) =>
    Array.from({ length: rows }, (_, i) =>
      JSON.stringify({ id: i + 1 === line ? id : `r${i}`, input: i }),
    ).join("\n");

  it("fails a bad file with its line and reason, and writes nothing", async () => {
    const base = await emptyDataset();
    await suite.api.post(`${base}/rows`, { rows: [{ id: "exists", input: "x" }] });
    const cases: [string | Uint8Array, string, string, string, Record<string, unknown>][] = [
      ['id,input\nr1,ok\nr2,"never closed\n', "text/csv", "", "validation_failed", { line: 3 }],
      ["id,input\nr1,ok\nr2\n", "text/csv", "", "validation_failed", { line: 3 }],
      ["id,input,input\nr1,a,b\n", "text/csv", "", "validation_failed", { line: 1, field: "input" }],
      [
        '{"id":"d1","input":1}\n{"id":"d2","input":2}\n{"id":"d1","input":3}\n',
        "application/x-ndjson",
        "",
        "validation_failed",
        { line: 3, lines: [1, 3] },
      ],
      [
        '{"id":"new","input":1}\n{"id":"exists","input":2}\n',
        "application/x-ndjson",
        "",
        "conflict",
        { line: 2 },
      ],
      [
        '{"id":"exists","input":1}\n{"id":"ghost","input":2}\n',
        "application/x-ndjson",
        "?mode=update",
        "not_found",
        { line: 2 },
      ],
      ['{"input":1}\n', "application/x-ndjson", "?mode=update", "validation_failed", { line: 1 }],
      // Far apart, in different pieces of the insert (decision 0055): found all the same.
      [
        longFile(1_000, 900, "r5"),
        "application/x-ndjson",
        "",
        "validation_failed",
        { line: 900, lines: [6, 900] },
      ],
      [longFile(1_000, 800, "exists"), "application/x-ndjson", "", "conflict", { line: 800 }],
      ['[{"input":1},\n{"input":]', "application/json", "", "validation_failed", { line: 2 }],
      [
        new Uint8Array([...new TextEncoder().encode("id,input\nr1,ok\nr2,"), 0xc3, 0x28, 10]),
        "text/csv",
        "",
        "validation_failed",
        { line: 3 },
      ],
    ];
    for (const [body, type, query, code, details] of cases) {
      const error = await refusal(base, body, type, query);
      expect(error?.code, JSON.stringify(error)).toBe(code);
      expect(error?.details, JSON.stringify(error)).toMatchObject(details);
      expect(error?.error).toMatch(/^Line \d+: /);
    }
    expect((await rows(base)).map((row) => row.rowId)).toEqual(["exists"]);
    expect(await version(base)).toBe(1);
    const columns = (await suite.api.get<{ columns: unknown[] }>(`${base}/columns`)).body.columns;
    expect(columns).toHaveLength(4);
  });

  it("imports a Parquet file, as dataset hubs publish them, mapped by name or by map", async () => {
    const base = await emptyDataset();
    const rows = 1_200;
    const file = new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: "id", data: Array.from({ length: rows }, (_, i) => `p${i}`), type: "STRING" },
          {
            name: "question",
            data: Array.from({ length: rows }, (_, i) => `question ${i} ✓`),
            type: "STRING",
          },
          {
            name: "answer",
            data: Array.from({ length: rows }, (_, i) => (i % 2 ? null : BigInt(i))),
            type: "INT64",
          },
          { name: "source", data: Array.from({ length: rows }, () => ({ hub: "hf" })), type: "JSON" },
        ],
        rowGroupSize: 500,
      }),
    );
    const map = encodeURIComponent(
      JSON.stringify({ question: "input", answer: "expectedOutput", source: "metadata" }),
    );
    const done = await imported(base, file, "application/vnd.apache.parquet", `?map=${map}`);
    expect(done).toMatchObject({ state: "succeeded", format: "parquet", rowsRead: rows, rowsInserted: rows });
    expect(done.bytesRead).toBe(file.byteLength);
    const p2 = (await suite.api.get<Row>(`${base}/rows/p2`)).body;
    expect(p2).toMatchObject({ input: "question 2 ✓", expectedOutput: 2, metadata: { hub: "hf" } });
    expect((await suite.api.get<Row>(`${base}/rows/p1`)).body.expectedOutput).toBeNull();
    // Not Parquet at all: a bad file, nothing written.
    const bad = await imported(base, "PAR1 but nothing else", "application/vnd.apache.parquet");
    expect(bad.state).toBe("failed");
    expect(bad.error?.error).toMatch(/not a Parquet file/);
    expect(await version(base)).toBe(1);
  });

  it("refuses at once a wrong Content-Type, an empty file and a map to an unknown column", async () => {
    const base = await emptyDataset();
    const plain = await upload(base, "id,input\n", "text/plain");
    expect(plain.status).toBe(415);
    expect(plain.body.code).toBe("unsupported_media_type");
    expect(String(plain.body.error)).toMatch(/text\/csv, application\/x-ndjson, application\/json/);
    const empty = await upload(base, "", "text/csv");
    expect(empty.status).toBe(400);
    expect(String(empty.body.error)).toMatch(/empty/);
    const unknown = await upload(
      base,
      "id,input\nr1,a\n",
      "text/csv",
      `?map=${encodeURIComponent('{"input":"zzz"}')}`,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe("unknown_column");
    const badMap = await upload(base, "id,input\nr1,a\n", "text/csv", "?map=not-json");
    expect(badMap.status).toBe(400);
    expect(String(badMap.body.error)).toMatch(/map/);
    // A map to a removed column says so, and how to go on.
    const column = await suite.api.post<{ identifier: string }>(`${base}/columns`, { name: "topic" });
    expect((await suite.api.delete(`${base}/columns/${column.body.identifier}`)).status).toBe(204);
    const removed = await upload(
      base,
      "id,input,topic\nr1,a,b\n",
      "text/csv",
      `?map=${encodeURIComponent(JSON.stringify({ input: "input", topic: column.body.identifier }))}`,
    );
    expect(removed.status).toBe(400);
    expect(removed.body.code).toBe("unknown_column");
    expect(String(removed.body.error)).toMatch(/was removed.*restore the column or map the field elsewhere/);
    expect(await version(base)).toBe(0);
  });

  it("refuses a file declared larger than 1 GiB before reading it (413)", async () => {
    const base = await emptyDataset();
    const url = new URL(`${suite.target.baseUrl}${base}/imports`);
    const answer = await new Promise<{ status: number; body: { code?: string; error?: string } }>(
      (resolve, reject) => {
        const request = httpRequest(url, {
          method: "POST",
          headers: {
            authorization: `Bearer ${suite.target.ownerKey}`,
            "content-type": "text/csv",
            "content-length": String(1024 ** 3 + 1),
          },
        });
        request.on("error", reject);
        request.on("response", (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (piece: string) => {
            text += piece;
          });
          response.on("end", () => {
            request.destroy();
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) });
          });
        });
        // A first piece only: the platform answers from the declared length.
        request.write("id,input\n");
      },
    );
    expect(answer.status).toBe(413);
    expect(answer.body.code).toBe("payload_too_large");
    expect(answer.body.error).toMatch(/larger than the limit .* \(1 GiB\)/);
    expect(await version(base)).toBe(0);
  });

  it("lets the dataset be edited while a large file is read, and lands as one version after those edits", async () => {
    const base = await emptyDataset();
    await suite.api.post(`${base}/rows`, { rows: [{ id: "keep", input: "edited meanwhile" }] });
    const rows = 60_000;
    const file = Array.from({ length: rows }, (_, i) =>
      JSON.stringify({ input: { q: i, pad: "y".repeat(60) } }),
    ).join("\n");
    const first = await upload(base, file, "application/x-ndjson");
    expect(first.status).toBe(202);
    let edits = 0;
    const latencies: number[] = [];
    for (;;) {
      const state = (await suite.api.get<Import>(`${base}/imports/${first.body.importId}`)).body;
      if (state.state !== "running") break;
      const started = Date.now();
      const edit = await suite.api.patch(`${base}/rows/keep`, { output: `edit ${++edits}` });
      expect(edit.status).toBe(200);
      latencies.push(Date.now() - started);
    }
    // The import holds the dataset's lock only for its final statement: while the file is read,
    // edits go through (a lock held throughout would have let one edit through, at the very end).
    latencies.sort((a, b) => a - b);
    expect(latencies.length).toBeGreaterThanOrEqual(3);
    expect(latencies[Math.floor(latencies.length / 2)]).toBeLessThan(1_000);
    const done = await finishedImport(suite.api, base, first.body.importId);
    expect(done).toMatchObject({ state: "succeeded", rowsInserted: rows });
    // Versions stay gapless: the row's insert, each edit, then the import.
    expect(await version(base)).toBe(1 + edits + 1);
    const made = await suite.api.get<{ operation: string; rowsInserted: number }>(
      `${base}/versions/${done.version}`,
    );
    expect(made.body).toMatchObject({ operation: "import", rowsInserted: rows });
    expect((await suite.api.get<Row>(`${base}/rows/keep`)).body.output).toMatch(/^edit \d+$/);
  });

  it("imports once for a retry with the same Idempotency-Key", async () => {
    const base = await emptyDataset();
    const file = '{"input":"once"}\n';
    const headers = { "idempotency-key": `import-${Date.now()}` };
    const first = await imported(base, file, "application/x-ndjson", "", headers);
    const again = await upload(base, file, "application/x-ndjson", "", headers);
    expect(again.status).toBe(202);
    expect(again.body.importId).toBe(first.importId);
    expect(await rows(base)).toHaveLength(1);
  });
});
