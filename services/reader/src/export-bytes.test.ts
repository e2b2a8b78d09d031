import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ExportBytes } from "./export-bytes";

function written(write: (out: ExportBytes) => void): string {
  const out = new ExportBytes();
  write(out);
  return new TextDecoder("utf-8", { fatal: true }).decode(out.result());
}

const field = (text: string) => written((out) => out.csvText(text));
const cell = (json: string) => {
  const bytes = Buffer.from(json);
  return written((out) => out.csvCell(bytes, json === "" ? -1 : 0, bytes.length));
};

describe("export bytes", () => {
  test("a CSV text a spreadsheet would run comes after an apostrophe, unless formulas are raw; one beginning with an apostrophe always does", () => {
    for (const text of ["=1+2", "+1", "-x", "@cmd", "'a"]) expect(field(text)).toBe(`'${text}`);
    expect(field("\tTab")).toBe(`"'\tTab"`);
    expect(cell('"=1"')).toBe("'=1");
    expect(cell("-5")).toBe("-5");
    expect(cell('"-5"')).toBe('"""-5"""');
    const raw = (text: string) => {
      const out = new ExportBytes(64, "raw");
      out.csvText(text);
      return Buffer.from(out.result()).toString("utf8");
    };
    expect(raw("=1+2")).toBe("=1+2");
    expect(raw("'a")).toBe("''a");
  });

  test("a CSV field is quoted when it holds a comma, a quote or a line break, or starts or ends with a space", () => {
    expect(field("plain text")).toBe("plain text");
    expect(field("")).toBe("");
    expect(field("a,b")).toBe('"a,b"');
    expect(field('say "hi"')).toBe('"say ""hi"""');
    expect(field("two\nlines")).toBe('"two\nlines"');
    expect(field("cr\r")).toBe('"cr\r"');
    expect(field(" lead")).toBe('" lead"');
    expect(field("trail\t")).toBe('"trail\t"');
    expect(field("\u00a0nbsp")).toBe('"\u00a0nbsp"');
    expect(field("bom\ufeff")).toBe('"bom\ufeff"');
    expect(field("in the middle")).toBe("in the middle");
  });

  test("cells by the round-trip rule: strings that read as JSON stay JSON strings, objects lose PostgreSQL's spaces", () => {
    expect(cell("")).toBe("");
    expect(cell("null")).toBe("");
    expect(cell('"text"')).toBe("text");
    expect(cell('""')).toBe('""""""');
    expect(cell('"42"')).toBe('"""42"""');
    expect(cell('"true"')).toBe('"""true"""');
    expect(cell('"the truth"')).toBe("the truth");
    expect(cell('"nullable"')).toBe("nullable");
    expect(cell('"-"')).toBe("'-");
    expect(cell('" 7 "')).toBe('""" 7 """');
    expect(cell('"a \\"quote\\", then\\nmore"')).toBe('"a ""quote"", then\nmore"');
    expect(cell('"\\u0041"')).toBe("A");
    expect(cell("1.50")).toBe("1.50");
    expect(cell("false")).toBe("false");
    expect(cell('{"a": [1, "x, y: z"], "b": {"k": "v \\", "}}')).toBe(
      '"{""a"":[1,""x, y: z""],""b"":{""k"":""v \\"", ""}}"',
    );
    expect(cell("[1, 2]")).toBe('"[1,2]"');
    expect(cell("[]")).toBe("[]");
    expect(cell('"Größe? 日本 🦜"')).toBe("Größe? 日本 🦜");
    expect(cell('"a, b"')).toBe('"a, b"');
    expect(cell('"ends with a space "')).toBe('"ends with a space "');
    expect(cell('"ends with\u00a0"')).toBe('"ends with\u00a0"');
    expect(cell('"日本\u3000"')).toBe('"日本\u3000"');
    expect(cell('"\u00a0starts"')).toBe('"\u00a0starts"');
  });

  test("a cell read where it stands among others' bytes is written as the same cell on its own", () => {
    const json = fc.oneof(
      fc.constantFrom("", "null", "1.50", "true", '""', '"42"', '"\\u0041"', "[1, 2]", '{"a": "b, c"}'),
      fc.string({ unit: "grapheme", maxLength: 12 }).map((text) => JSON.stringify(text)),
      fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value, null, 1).replace(/\n */g, " ")),
    );
    fc.assert(
      fc.property(fc.array(json, { minLength: 1, maxLength: 6 }), (cells) => {
        const row = Buffer.from(cells.join("\u001f"));
        let from = 0;
        for (const one of cells) {
          const to = from + Buffer.byteLength(one);
          expect(written((out) => out.csvCell(row, one === "" ? -1 : from, to))).toBe(cell(one));
          from = to + 1;
        }
      }),
      { numRuns: 300, seed: 20261126 },
    );
  });

  test("any text comes back from its field as it was, as valid UTF-8", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), (text) => {
        const written = field(text);
        const quoted = written.startsWith('"') && written !== text;
        const unquoted = quoted ? written.slice(1, -1).replaceAll('""', '"') : written;
        // What a spreadsheet would run, or begins with an apostrophe, comes after one more.
        expect(/^[=+\-@\t\r']/.test(text) ? unquoted.replace(/^'/, "") : unquoted).toBe(text);
      }),
      { numRuns: 500, seed: 20261126 },
    );
  });

  test("the buffer grows past its first size, quotes doubled across the boundary", () => {
    const big = `${'"'.repeat(50_000)}${"é".repeat(50_000)}`;
    expect(field(big)).toBe(`"${'""'.repeat(50_000)}${"é".repeat(50_000)}"`);
    const out = new ExportBytes();
    for (let row = 0; row < 10_000; row++) out.csvText(`row ${row}, "quoted"`);
    expect(out.length).toBe(
      Buffer.byteLength(Array.from({ length: 10_000 }, (_, row) => `"row ${row}, ""quoted"""`).join("")),
    );
  });
});
