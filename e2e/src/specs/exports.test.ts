import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { describe, expect, it } from "vitest";
import { finishedImport } from "../factories";
import { projectForSuite, targets } from "../targets";

interface ErrorBody {
  code: string;
  error: string;
}

describe.each(targets())("dataset export (%s)", (_name, start) => {
  const suite = projectForSuite(start);

  let n = 0;
  async function makeDataset(columns: string[]) {
    const created = await suite.api.post<{ slug: string }>(`/v1/projects/${suite.project}/datasets`, {
      name: `Export ${++n}`,
    });
    const base = `/v1/projects/${suite.project}/datasets/${created.body.slug}`;
    const ids: string[] = [];
    for (const name of columns) {
      ids.push((await suite.api.post<{ identifier: string }>(`${base}/columns`, { name })).body.identifier);
    }
    return { base, slug: created.body.slug, ids };
  }

  const download = (path: string) =>
    fetch(`${suite.target.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${suite.target.ownerKey}` },
    });

  it("writes every kind of cell so that it reads back as itself, in CSV and in JSONL", async () => {
    const { base, slug, ids } = await makeDataset(["Note"]);
    const [note] = ids as [string];
    // A custom column may take the name "output" once the built-in one is called something else.
    expect((await suite.api.patch(`${base}/columns/output`, { name: "Answer" })).status).toBe(200);
    const clash = (await suite.api.post<{ identifier: string }>(`${base}/columns`, { name: "output" })).body
      .identifier;
    const rows = [
      {
        id: "a",
        input: "plain text",
        output: "42",
        expectedOutput: "",
        metadata: null,
        custom: { [note]: 'say "hi", then\nleave' },
      },
      {
        id: "b",
        input: { q: "Größe? 日本" },
        output: 42,
        expectedOutput: true,
        metadata: [1, "x"],
        custom: { [clash]: "null" },
      },
      { id: "c", input: " padded ", output: "-", custom: { [note]: null } },
    ];
    expect((await suite.api.post(`${base}/rows`, { rows })).status).toBe(201);

    const csv = await download(`${base}/export?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("x-svc-version")).toBe("1");
    expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="${slug}-v1.csv"`);
    expect(JSON.parse(csv.headers.get("x-svc-columns") ?? "")).toEqual({
      id: "id",
      Input: "input",
      Answer: "output",
      "Expected output": "expectedOutput",
      Metadata: "metadata",
      Note: note,
      [`output (${clash})`]: clash,
    });
    expect(await csv.text()).toBe(
      [
        `id,Input,Answer,Expected output,Metadata,Note,output (${clash})`,
        `a,plain text,"""42""","""""",,"say ""hi"", then\nleave",`,
        'b,"{""q"":""Größe? 日本""}",42,true,"[1,""x""]",,"""null"""',
        'c," padded ",\'-,,,,',
        "",
      ].join("\r\n"),
    );

    const jsonl = await download(`${base}/export?format=jsonl`);
    expect(jsonl.headers.get("content-type")).toBe("application/x-ndjson");
    const lines = (await jsonl.text()).split("\n");
    expect(lines.pop()).toBe("");
    expect(lines[0]).toMatch(/^\{"rowId":"a","input":.*"metadata":null,"custom":\{/);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        rowId: "a",
        input: "plain text",
        output: "42",
        expectedOutput: "",
        metadata: null,
        custom: { [note]: 'say "hi", then\nleave' },
      },
      {
        rowId: "b",
        input: { q: "Größe? 日本" },
        output: 42,
        expectedOutput: true,
        metadata: [1, "x"],
        custom: { [clash]: "null" },
      },
      {
        rowId: "c",
        input: " padded ",
        output: "-",
        expectedOutput: null,
        metadata: null,
        custom: { [note]: null },
      },
    ]);
  });

  it("writes Parquet: an id column and a JSON column per column, each cell exact, read back unchanged", async () => {
    const { base, slug, ids } = await makeDataset(["Note"]);
    const [note] = ids as [string];
    const varied = [
      {
        id: "a",
        input: "plain text",
        output: "42",
        expectedOutput: "",
        custom: { [note]: 'say "hi",\nbye' },
      },
      { id: "b", input: { q: "Größe? 日本" }, output: 42, expectedOutput: true, metadata: [1, "x"] },
      { id: "c", input: " padded ", output: null, custom: { [note]: { deep: [null, 1.5] } } },
    ];
    expect((await suite.api.post(`${base}/rows`, { rows: varied })).status).toBe(201);
    // Enough rows of 3 kB for the file to need more than one row group.
    const many = 3000;
    for (let from = 0; from < many; from += 250) {
      const rows = Array.from({ length: 250 }, (_, i) => ({
        id: `r${String(from + i).padStart(5, "0")}`,
        input: { text: "y".repeat(3000), n: from + i },
      }));
      expect((await suite.api.post(`${base}/rows`, { rows })).status).toBe(201);
    }

    const response = await download(`${base}/export?format=parquet`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.apache.parquet");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${slug}-v13.parquet"`);
    const file = await response.arrayBuffer();
    const metadata = parquetMetadata(file);
    expect(metadata.row_groups.length).toBeGreaterThan(1);
    expect(metadata.schema.map((element) => element.name)).toEqual([
      "root",
      "id",
      "Input",
      "Output",
      "Expected output",
      "Metadata",
      "Note",
    ]);
    const read = await parquetReadObjects({ file });
    expect(read).toHaveLength(3 + many);
    expect(read.slice(0, 3)).toEqual([
      {
        id: "a",
        Input: "plain text",
        Output: "42",
        "Expected output": "",
        Metadata: null,
        Note: 'say "hi",\nbye',
      },
      {
        id: "b",
        Input: { q: "Größe? 日本" },
        Output: 42,
        "Expected output": true,
        Metadata: [1, "x"],
        Note: null,
      },
      {
        id: "c",
        Input: " padded ",
        Output: null,
        "Expected output": null,
        Metadata: null,
        Note: { deep: [null, 1.5] },
      },
    ]);
    expect(read.at(-1)).toEqual({
      id: "r02999",
      Input: { text: "y".repeat(3000), n: 2999 },
      Output: null,
      "Expected output": null,
      Metadata: null,
      Note: null,
    });

    // The round trip: the file imported back as an update changes nothing.
    const upload = await fetch(`${suite.target.baseUrl}${base}/imports?mode=update`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${suite.target.ownerKey}`,
        "content-type": "application/vnd.apache.parquet",
      },
      body: file,
    });
    expect(upload.status).toBe(202);
    const { importId } = (await upload.json()) as { importId: string };
    let state: { state: string; versionId?: string | null; rowsUpdated?: number; error?: unknown };
    do {
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = (await suite.api.get<typeof state>(`${base}/imports/${importId}`)).body;
    } while (state.state === "running" || state.state === "receiving");
    expect(state).toMatchObject({ state: "succeeded", versionId: null, rowsUpdated: 0 });
  });

  it("streams a dataset larger than one piece, in order, as one snapshot while another client edits", async () => {
    const { base } = await makeDataset([]);
    const total = 3000;
    for (let from = 0; from < total; from += 1000) {
      const rows = Array.from({ length: 1000 }, (_, i) => ({
        id: `r${String(from + i).padStart(5, "0")}`,
        input: { text: "x".repeat(300), n: from + i },
        output: "before",
      }));
      expect((await suite.api.post(`${base}/rows`, { rows })).status).toBe(201);
    }
    // Version 3 holds every row with output "before"; edits race the export from here on.
    const editing = (async () => {
      for (let i = 0; i < 20; i++) {
        await suite.api.patch(`${base}/rows/r${String(i * 100).padStart(5, "0")}`, { output: "after" });
      }
    })();
    const response = await download(`${base}/export?format=jsonl&version=3`);
    const text = await response.text();
    await editing;
    const lines = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { rowId: string; output: string });
    expect(lines).toHaveLength(total);
    expect(text.length).toBeGreaterThan(384 * 1024 * 2);
    expect(new Set(lines.map((row) => row.rowId)).size).toBe(total);
    expect(new Set(lines.map((row) => row.output))).toEqual(new Set(["before"]));
    const now = await download(`${base}/export?format=jsonl`);
    expect(now.headers.get("x-svc-version")).toBe("23");
    expect((await now.text()).split("\n").filter((line) => line.includes('"after"'))).toHaveLength(20);
  });

  it("exports an earlier version, and refuses a version that does not exist or an unknown format", async () => {
    const { base } = await makeDataset([]);
    await suite.api.post(`${base}/rows`, { rows: [{ id: "only", input: "v1" }] });
    await suite.api.patch(`${base}/rows/only`, { input: "v2" });
    expect(await (await download(`${base}/export?version=1`)).text()).toBe(
      "id,Input,Output,Expected output,Metadata\r\nonly,v1,,,\r\n",
    );
    expect(await (await download(`${base}/export?version=0`)).text()).toBe(
      "id,Input,Output,Expected output,Metadata\r\n",
    );
    const future = await suite.api.get<ErrorBody>(`${base}/export?version=9`);
    expect(future.status).toBe(404);
    expect(future.body.code).toBe("not_found");
    const format = await suite.api.get<ErrorBody>(`${base}/export?format=xlsx`);
    expect(format.status).toBe(400);
    expect(format.body.error).toMatch(/format/);
    const missing = await suite.api.get<ErrorBody>(`/v1/projects/${suite.project}/datasets/nope/export`);
    expect(missing.status).toBe(404);
  });

  it("writes text a spreadsheet would run after an apostrophe, numbers as they are, and reads it all back exactly", async () => {
    const { base, ids } = await makeDataset(["=SUM(A1:A9)", "'quoted"]);
    const [formula, quoted] = ids as [string, string];
    const texts = [
      "=1+2",
      "+1",
      "-x",
      "@cmd",
      "\tTab",
      "\rCR",
      "'apostrophe",
      "''two",
      "=",
      "'",
      "-5",
      "plain",
    ];
    const rows = texts.map((text, i) => ({
      id: i === 0 ? "-r0" : `r${i}`,
      input: text,
      output: i % 2 ? -5 : -0.25,
      custom: { [formula]: text, [quoted]: { "=k": "=v" } },
    }));
    expect((await suite.api.post(`${base}/rows`, { rows })).status).toBe(201);
    const read = async (query: string) => {
      const answer = await download(`${base}/export?format=csv${query}`);
      expect(answer.status).toBe(200);
      return answer.text();
    };
    const escaped = await read("");
    const lines = escaped.split("\r\n");
    expect(lines[0]).toBe("id,Input,Output,Expected output,Metadata,'=SUM(A1:A9),''quoted");
    const object = `"{""=k"":""=v""}"`;
    expect(lines.slice(1, -1).sort()).toEqual(
      [
        `'-r0,'=1+2,-0.25,,,'=1+2,${object}`,
        `r1,'+1,-5,,,'+1,${object}`,
        `r2,'-x,-0.25,,,'-x,${object}`,
        `r3,'@cmd,-5,,,'@cmd,${object}`,
        `r4,"'\tTab",-0.25,,,"'\tTab",${object}`,
        `r5,"'\rCR",-5,,,"'\rCR",${object}`,
        `r6,''apostrophe,-0.25,,,''apostrophe,${object}`,
        `r7,'''two,-5,,,'''two,${object}`,
        `r8,'=,-0.25,,,'=,${object}`,
        `r9,'',-5,,,'',${object}`,
        `r10,"""-5""",-0.25,,,"""-5""",${object}`,
        `r11,plain,-5,,,plain,${object}`,
      ].sort(),
    );
    const raw = (await read("&csvFormulas=raw")).split("\r\n");
    expect(raw[0]).toBe("id,Input,Output,Expected output,Metadata,=SUM(A1:A9),''quoted");
    expect(raw).toContain(`-r0,=1+2,-0.25,,,=1+2,${object}`);
    expect(raw).toContain(`r6,''apostrophe,-0.25,,,''apostrophe,${object}`);

    const listed = async () =>
      (await suite.api.get<{ items: unknown[] }>(`${base}/rows?limit=100&sortDirection=asc`)).body.items;
    const before = await listed();
    for (const csv of [escaped, raw.join("\r\n")]) {
      const imported = await fetch(`${suite.target.baseUrl}${base}/imports?mode=update`, {
        method: "POST",
        headers: { authorization: `Bearer ${suite.target.ownerKey}`, "content-type": "text/csv" },
        body: csv,
      });
      expect(imported.status).toBe(202);
      const { importId } = (await imported.json()) as { importId: string };
      const done = await finishedImport(suite.api, base, importId);
      expect(done, JSON.stringify(done.error)).toMatchObject({
        state: "succeeded",
        versionId: null,
        rowsUpdated: 0,
      });
    }
    expect(await listed()).toEqual(before);
  });
});
