import { type Cell, csvTextToCell } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { insertRows, makeDataset } from "@svc/testing/datasets";
import fc from "fast-check";
import { sql } from "kysely";
import { describe, expect, test } from "vitest";
import { ExportBytes } from "../export-bytes";
import { readerSuite } from "../test-support";
import { EXACT_TIMESTAMP_PATTERN } from "./db";
import { CELLS_FROM, copyExportedRows, type ExportedRow, LastRowKey, type StoredCell } from "./export-rows";
import type { RowKey } from "./rows";

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
/** A row's fields as text (the id, then each cell's JSON, `undefined` for SQL NULL). */
interface CopiedRow {
  rowId: string;
  cells: (string | undefined)[];
}

/** A stored cell's JSON (undefined: not set) as one CSV field, and that field's text as RFC 4180 reads it. */
const csvText = (json: string | undefined) => {
  const bytes = Buffer.from(json ?? "");
  const field = written((out) => out.csvCell(bytes, json === undefined ? -1 : 0, bytes.length));
  return field.startsWith('"') ? field.slice(1, -1).replaceAll('""', '"') : field;
};
const compactJson = (json: string) => {
  const bytes = Buffer.from(json);
  return written((out) => out.compactJson(bytes, 0, bytes.length, false));
};

/** A row as the export reads it, its fields turned into text. */
const textOf = ({ bytes, start, end }: ExportedRow): CopiedRow => ({
  rowId: bytes.toString("latin1", start[0], end[0]),
  cells: Array.from({ length: start.length - CELLS_FROM }, (_, index) => {
    const from = start[CELLS_FROM + index] as number;
    return from < 0 ? undefined : bytes.toString("utf8", from, end[CELLS_FROM + index]);
  }),
});

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
  /** The rows at version 1 of a dataset, as text, each also given to `each` as it is read. */
  const read = async (
    datasetId: string,
    query: { after: RowKey | undefined; limit: number; cells: StoredCell[] },
    each: (row: ExportedRow) => void = () => undefined,
  ): Promise<CopiedRow[]> => {
    const rows: CopiedRow[] = [];
    await copyExportedRows(
      reader.db,
      reader.backend.database.copyTo,
      { datasetId, version: 1, ...query },
      (row) => {
        rows.push(textOf(row));
        each(row);
      },
    );
    return rows;
  };

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
        const rows = await read(dataset.id, {
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
          const [inputJson, outputJson, customJson] = row.cells;
          expect([undefined, "null"]).toContain(outputJson); // not set: SQL NULL or JSON null, as stored
          for (const [value, json] of [
            [input, inputJson],
            [custom, customJson],
          ] as const) {
            expect(csvTextToCell(csvText(json))).toEqual(value === null ? undefined : value);
            expect(JSON.parse(json === undefined ? "null" : compactJson(json))).toEqual(value);
            if (json !== undefined)
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
    const last = new LastRowKey();
    const page = (after: RowKey | undefined) =>
      read(dataset.id, { after, limit: 2, cells: [{ kind: "builtin", field: "input" }] }, (row) =>
        last.remember(row),
      );
    const first = await page(undefined);
    const key = last.key();
    expect(key?.rowId).toBe("p1");
    expect(key?.createdAt).toMatch(EXACT_TIMESTAMP_PATTERN);
    const second = await page(key);
    expect([...first, ...second]).toEqual([
      { rowId: "p0", cells: ["0"] },
      { rowId: "p1", cells: ["1"] },
      { rowId: "p2", cells: ["2"] },
      { rowId: "p3", cells: ["3"] },
    ]);
  });
});
