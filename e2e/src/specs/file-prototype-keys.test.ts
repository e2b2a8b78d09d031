import { describe, expect, it } from "vitest";
import { finishedImport, type Import, makeDataset, type Row, versionOf } from "../factories";
import { projectForSuite, targets } from "../targets";

/** Names that a plain object answers for itself: a file's field may be called any of them. */
const NAMES = ["constructor", "toString", "__proto__"] as const;

/** Cells whose keys are those names too, parsed as JSON (so `__proto__` is an own key). */
const CELLS: unknown[] = JSON.parse(
  '[{"__proto__":{"x":1}}, {"constructor":1,"toString":"s","__proto__":null}, [{"__proto__":[]}], "__proto__"]',
);

const TYPES = {
  csv: "text/csv",
  jsonl: "application/x-ndjson",
  parquet: "application/vnd.apache.parquet",
} as const;

describe.each(targets())("files with fields named like Object's own properties (%s)", (_name, start) => {
  const suite = projectForSuite(start);

  async function imported(base: string, body: string | Uint8Array, type: string, query = "") {
    const response = await fetch(`${suite.target.baseUrl}${base}/imports${query}`, {
      method: "POST",
      headers: { authorization: `Bearer ${suite.target.ownerKey}`, "content-type": type },
      body,
    });
    const first = (await response.json()) as Import;
    expect(response.status, JSON.stringify(first)).toBe(202);
    return finishedImport(suite.api, base, first.importId);
  }

  const exported = async (base: string, format: string) =>
    new Uint8Array(
      await (
        await fetch(`${suite.target.baseUrl}${base}/export?format=${format}`, {
          headers: { authorization: `Bearer ${suite.target.ownerKey}` },
        })
      ).arrayBuffer(),
    );

  /** Each row's cells, by column display name, as the API shows them. */
  async function cellsByName(base: string) {
    const columns = (
      await suite.api.get<{ columns: { identifier: string; name: string }[] }>(`${base}/columns`)
    ).body.columns;
    const rows = (await suite.api.get<{ items: Row[] }>(`${base}/rows?limit=100&sortDirection=asc`)).body
      .items;
    return rows.map((row) => [
      row.rowId,
      row.input,
      columns
        .filter((column) => Object.hasOwn(row.custom, column.identifier))
        .map((c) => [c.name, row.custom[c.identifier]]),
    ]);
  }

  it("imports fields called constructor, toString and __proto__ into columns of those names, from JSONL, JSON and CSV", async () => {
    const lines = CELLS.map((cell, i) =>
      JSON.stringify({ id: `r${i}`, input: cell, ...Object.fromEntries(NAMES.map((name) => [name, cell])) }),
    );
    // Object.fromEntries and spreading define `__proto__` as an own key, which JSON.stringify writes.
    const jsonl = lines;
    expect(jsonl[0]).toContain('"__proto__":{"__proto__":{"x":1}}');
    const expected = CELLS.map((cell, i) => [`r${i}`, cell, NAMES.map((name) => [name, cell])]);
    for (const [type, body] of [
      ["application/x-ndjson", `${jsonl.join("\n")}\n`],
      ["application/json", `[${jsonl.join(",\n")}]`],
    ] as const) {
      const { base } = await makeDataset(suite.api, suite.project);
      expect(await imported(base, body, type), type).toMatchObject({ state: "succeeded", rowsInserted: 4 });
      expect(await cellsByName(base), type).toEqual(expected);
    }
    const { base } = await makeDataset(suite.api, suite.project);
    const csv = `id,constructor,toString,__proto__\r\nr0,"{""__proto__"":{""x"":1}}",a,b\r\n`;
    expect(await imported(base, csv, "text/csv")).toMatchObject({ state: "succeeded", rowsInserted: 1 });
    expect((await cellsByName(base))[0]).toEqual([
      "r0",
      null,
      [
        ["constructor", JSON.parse('{"__proto__":{"x":1}}')],
        ["toString", "a"],
        ["__proto__", "b"],
      ],
    ]);
  });

  it("takes a map from a field called __proto__ or constructor", async () => {
    const { base } = await makeDataset(suite.api, suite.project);
    const map = encodeURIComponent('{"__proto__":"input","constructor":"expectedOutput"}');
    const done = await imported(
      base,
      '{"__proto__":"q","constructor":"a","other":1}\n',
      "application/x-ndjson",
      `?map=${map}`,
    );
    expect(done).toMatchObject({ state: "succeeded", rowsInserted: 1 });
    const [row] = (await suite.api.get<{ items: Row[] }>(`${base}/rows`)).body.items;
    expect(row).toMatchObject({ input: "q", expectedOutput: "a", custom: {} });
  });

  it("round-trips columns and cells named like Object's own properties through CSV, JSONL and Parquet exactly", async () => {
    const { base } = await makeDataset(suite.api, suite.project);
    const ids: string[] = [];
    for (const name of NAMES)
      ids.push((await suite.api.post<{ identifier: string }>(`${base}/columns`, { name })).body.identifier);
    const rows = CELLS.map(
      (cell, i) =>
        `{"id":"r${i}","input":${JSON.stringify(cell)},"custom":{${ids.map((id) => `"${id}":${JSON.stringify(cell)}`).join(",")}}}`,
    );
    const inserted = await suite.api.post(`${base}/rows`, `{"rows":[${rows.join(",")}]}`);
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(201);
    const before = await cellsByName(base);
    expect(before[0]).toEqual(["r0", CELLS[0], NAMES.map((name) => [name, CELLS[0]])]);
    for (const [format, type] of Object.entries(TYPES)) {
      const file = await exported(base, format);
      const same = await imported(base, file, type, "?mode=update");
      expect(same, format).toMatchObject({ state: "succeeded", versionId: null, rowsUpdated: 0 });
      // Into a new dataset, the file gives the same cells, in columns named as the file heads them
      // (JSONL keys custom cells by the identifiers of the dataset it came from).
      const copy = (await makeDataset(suite.api, suite.project)).base;
      expect(await imported(copy, file, type), format).toMatchObject({ state: "succeeded", rowsInserted: 4 });
      const heading = (name: string) => (format === "jsonl" ? ids[NAMES.indexOf(name as never)] : name);
      expect(await cellsByName(copy), format).toEqual(
        before.map(([rowId, input, cells]) => [
          rowId,
          input,
          (cells as [string, unknown][]).map(([name, cell]) => [heading(name), cell]),
        ]),
      );
    }
    expect(await versionOf(suite.api, base)).toBe(1);
  });
});
