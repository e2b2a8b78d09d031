import { describe, expect, it } from "vitest";
import { csv, jsonLines, recordsOf, table } from "./render";

describe("recordsOf", () => {
  it("finds the records of arrays, pages and single-list objects", () => {
    expect(recordsOf([1, 2])).toEqual([1, 2]);
    expect(recordsOf({ items: [{ a: 1 }], nextCursor: null, hasMore: false })).toEqual([{ a: 1 }]);
    expect(recordsOf({ columns: [{ a: 1 }] })).toEqual([{ a: 1 }]);
    expect(recordsOf({ a: 1, b: [1] })).toBeUndefined();
  });
});

describe("csv", () => {
  it("follows RFC 4180: CRLF, quoted fields, doubled quotes, union of keys in first-seen order", () => {
    const text = csv({
      items: [
        { id: "a", text: 'say "hi", then\nleave', n: 1 },
        { id: "b", extra: { x: [1] }, n: null },
      ],
    });
    expect(text).toBe('id,text,n,extra\r\na,"say ""hi"", then\nleave",1,\r\nb,,,"{""x"":[1]}"\r\n');
  });

  it("writes a single object as one row and scalars as a value column", () => {
    expect(csv({ a: 1, b: true })).toBe("a,b\r\n1,true\r\n");
    expect(csv(["x", "y"])).toBe("value\r\nx\r\ny\r\n");
  });
});

describe("jsonLines", () => {
  it("writes one compact line per element of an array or of a page's items", () => {
    expect(jsonLines({ items: [{ a: 1 }, { a: 2 }], hasMore: false })).toBe('{"a":1}\n{"a":2}\n');
    expect(jsonLines([1, "x"])).toBe('1\n"x"\n');
    expect(jsonLines({ a: { b: 1 } })).toBe('{"a":{"b":1}}\n');
  });
});

describe("table", () => {
  const rows = { items: [{ id: "r1", text: "a".repeat(100), nested: { k: 1 }, none: null }] };

  it("shows scalars as columns and nested values as compact JSON, untruncated off a terminal", () => {
    const text = table(rows, { tty: false, color: false, columns: 40 });
    const [header, line] = text.split("\n");
    expect(header).toMatch(/^id\s+text\s+nested\s+none$/);
    expect(line).toContain("a".repeat(100));
    expect(line).toContain('{"k":1}');
  });

  it("truncates to the terminal's width on a terminal", () => {
    const text = table(rows, { tty: true, color: false, columns: 60 });
    for (const line of text.trimEnd().split("\n")) expect([...line].length).toBeLessThanOrEqual(60);
    expect(text).toContain("…");
  });

  it("shows one record a field a line on a terminal too narrow for its fields, and as a table otherwise", () => {
    const importJob = {
      importId: "j0woe5o5a6bnefcrk653gf7g",
      state: "succeeded",
      format: "csv",
      mode: "update",
      bytesRead: 12896332,
      rowsRead: 200000,
      createdAt: "2026-11-27T02:13:07.048Z",
      finishedAt: "2026-11-27T02:13:21.512Z",
      versionId: null,
      version: 1,
      rowsInserted: 0,
      rowsUpdated: 0,
    };
    const narrow = table(importJob, { tty: true, color: false, columns: 80 });
    const lines = narrow.trimEnd().split("\n");
    expect(lines).toHaveLength(12);
    expect(lines[0]).toBe("importId      j0woe5o5a6bnefcrk653gf7g");
    expect(lines[7]).toBe("finishedAt    2026-11-27T02:13:21.512Z");
    expect(lines[8]).toBe("versionId");
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(table(importJob, { tty: true, color: false, columns: 20 })).toContain("importId      j0woe…\n");
    expect(table(importJob, { tty: true, color: true, columns: 80 })).toContain(
      "\u001b[1mimportId    \u001b[0m",
    );
    // Wide enough, off a terminal, or several records: the table of CLI.md.
    expect(table(importJob, { tty: true, color: false, columns: 300 }).split("\n")).toHaveLength(3);
    expect(table(importJob, { tty: false, color: false, columns: 80 }).split("\n")).toHaveLength(3);
    const two = table({ items: [importJob, importJob] }, { tty: true, color: false, columns: 80 });
    expect(two.trimEnd().split("\n")).toHaveLength(3);
  });

  it("cuts the other columns before the records' own identifiers, which people copy", () => {
    const items = [1, 2].map((n) => ({
      rowId: `row-${n}-${"x".repeat(20)}`,
      input: `question ${n} ${"y".repeat(60)}`,
      expectedOutput: `answer ${n} ${"z".repeat(40)}`,
    }));
    const lines = table({ items }, { tty: true, color: false, columns: 80 }).trimEnd().split("\n");
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    expect(lines[1]).toMatch(/^row-1-x{20} {2}question 1 y+… {2}answer 1 z+…$/);
    // Too narrow for even the titles of the others: the identifiers are cut too.
    const narrow = table({ items }, { tty: true, color: false, columns: 30 }).trimEnd().split("\n");
    expect(narrow[1]).toMatch(/^row-1-x*… {2}ques… {2}/);
  });

  it("colours the header only when asked", () => {
    expect(table(rows, { tty: true, color: true, columns: 200 })).toContain("\u001b[1m");
    expect(table(rows, { tty: true, color: false, columns: 200 })).not.toContain("\u001b[");
  });

  it("renders 10,000 rows quickly", () => {
    const many = {
      items: Array.from({ length: 10_000 }, (_, i) => ({ id: `r${i}`, input: { q: i }, version: i })),
    };
    const started = performance.now();
    const text = table(many, { tty: false, color: false, columns: 120 });
    expect(text.split("\n")).toHaveLength(10_002);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
