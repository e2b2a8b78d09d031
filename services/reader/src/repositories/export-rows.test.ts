import { type Cell, csvTextToCell } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import fc from "fast-check";
import { sql } from "kysely";
import { describe, expect, test } from "vitest";
import { ExportBytes } from "../export-bytes";
import { insertRows, makeDataset } from "../test-factories";
import { readerSuite } from "../test-support";
import { CELL_SEPARATOR, findExportedRowKey, listExportedRows } from "./export-rows";

/** Strings that read as other JSON values, or nearly: each must come back as the string it is. */
const LOOKS_LIKE_JSON = [
  "",
  "42",
  "-0",
  "1e5",
  " 7 ",
  "true",
  "null",
  "nul",
  "t",
  "-",
  '"quoted"',
  '{"a":1}',
  "{not json}",
  "[1, 2]",
  "[",
  "\\u0041",
  '\\"',
  'say "hi", then\nleave',
  "tab\tand\u0001control\u001f",
  "\u2028\u2029\u007f",
  "Größe? 日本 🦜",
];

/** What `write` writes, as text. */
function written(write: (out: ExportBytes) => void): string {
  const out = new ExportBytes();
  write(out);
  return new TextDecoder().decode(out.result());
}
/** A stored cell's JSON as one CSV field, and that field's text as RFC 4180 reads it. */
const csvText = (json: string) => {
  const field = written((out) => out.csvCell(json));
  return field.startsWith('"') ? field.slice(1, -1).replaceAll('""', '"') : field;
};
const compactJson = (json: string) => written((out) => out.compactJson(json, false));

const text = fc.oneof(fc.string({ unit: "grapheme", maxLength: 12 }), fc.constantFrom(...LOOKS_LIKE_JSON));
const { cell } = fc.letrec<{ cell: Cell }>((tie) => ({
  cell: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)),
    text,
    fc.array(tie("cell"), { maxLength: 4 }),
    fc.dictionary(text, tie("cell"), { maxKeys: 4 }),
  ),
}));

describe.each(availableBackends())("cells as an export reads them (%s)", (backendName) => {
  const reader = readerSuite(backendName);

  test("a string's JSON from the database is JSON.stringify's, so a CSV field may carry it as written", async () => {
    for (const value of LOOKS_LIKE_JSON) {
      const { rows } = await sql<{ json: string }>`SELECT to_jsonb(${value}::text)::text AS json`.execute(
        reader.db,
      );
      expect(rows[0]?.json).toBe(JSON.stringify(value));
    }
  });

  test("every cell's CSV text reads back as the cell, and its compact JSON is its JSON", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(cell, cell), { minLength: 1, maxLength: 8 }), async (pairs) => {
        const dataset = await makeDataset(reader.db, reader.project, { customColumns: 1 });
        const [note = ""] = dataset.custom;
        await insertRows(
          reader.db,
          dataset,
          pairs.map(([input, custom], index) => ({ id: `r${index}`, input, custom: { [note]: custom } })),
        );
        const rows = await listExportedRows(reader.db, {
          datasetId: dataset.id,
          version: 1,
          after: undefined,
          limit: pairs.length,
          cells: [
            { kind: "builtin", field: "input" },
            { kind: "builtin", field: "output" },
            { kind: "custom", identifier: note },
          ],
        });
        expect(rows.map((row) => row.rowId)).toEqual(pairs.map((_, index) => `r${index}`));
        rows.forEach((row, index) => {
          const [input, custom] = pairs[index] as [Cell, Cell];
          const [inputJson = "", outputJson, customJson = ""] = row.cells.split(CELL_SEPARATOR);
          expect(["", "null"]).toContain(outputJson); // not set: SQL NULL or JSON null, as stored
          for (const [value, json] of [
            [input, inputJson],
            [custom, customJson],
          ] as const) {
            expect(csvTextToCell(csvText(json))).toEqual(value === null ? undefined : value);
            expect(JSON.parse(compactJson(json))).toEqual(value);
            expect(compactJson(json)).not.toMatch(/^(?:[^"]|"(?:[^"\\]|\\.)*")*?[,:] /);
          }
        });
      }),
      { numRuns: 25, seed: 20261126 },
    );
  });

  test("compact JSON leaves strings as they are and drops only the spaces PostgreSQL writes", () => {
    expect(compactJson('{"a": [1, "x, y: z"], "b": {"k": "v \\", "}}')).toBe(
      '{"a":[1,"x, y: z"],"b":{"k":"v \\", "}}',
    );
    expect(compactJson('"a, b: c"')).toBe('"a, b: c"');
    expect(compactJson("[]")).toBe("[]");
    expect(compactJson('["\\\\", 1]')).toBe('["\\\\",1]');
  });

  test("pages follow each other by the key of the last row, at any version", async () => {
    const dataset = await makeDataset(reader.db, reader.project);
    await insertRows(
      reader.db,
      dataset,
      Array.from({ length: 5 }, (_, index) => ({ id: `p${index}`, input: index })),
    );
    const read = async (after: Awaited<ReturnType<typeof findExportedRowKey>> | undefined) =>
      listExportedRows(reader.db, {
        datasetId: dataset.id,
        version: 1,
        after,
        limit: 2,
        cells: [{ kind: "builtin", field: "input" }],
      });
    const first = await read(undefined);
    const key = await findExportedRowKey(reader.db, { datasetId: dataset.id, version: 1, rowId: "p1" });
    const second = await read(key);
    expect([...first, ...second]).toEqual([
      { rowId: "p0", cells: "0" },
      { rowId: "p1", cells: "1" },
      { rowId: "p2", cells: "2" },
      { rowId: "p3", cells: "3" },
    ]);
  });
});
