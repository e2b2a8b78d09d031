import { DomainError, type ImportFormat, MAX_FILE_FIELDS } from "@svc/contracts";
import { describe, expect, it } from "vitest";
import type { FileRecord } from "./file-record";
import { readRecords } from "./file-records";

/** Reads a file given as text, cut into pieces of `size` bytes to cross every boundary. */
async function read(format: ImportFormat, text: string | Uint8Array, size = 3): Promise<FileRecord[]> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  async function* chunks() {
    for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
  }
  const records: FileRecord[] = [];
  for await (const { line, fields } of readRecords(format, chunks(), { bytesRead: 0 }))
    records.push({ line, fields });
  return records;
}

async function failure(format: ImportFormat, text: string | Uint8Array) {
  try {
    await read(format, text);
  } catch (error) {
    if (error instanceof DomainError) return { message: error.message, details: error.details };
    throw error;
  }
  throw new Error("expected the file to be refused");
}

describe("CSV", () => {
  it("reads RFC 4180 with quotes, embedded line breaks, unicode and JSON cells, each with its line", async () => {
    const file =
      '\uFEFFid,input,note\r\nr1,"say ""hi"", then\nleave",日本語\r\nr2,"{""a"":[1,2]}",42\r\nr3,,"""42"""\r\n';
    expect(await read("csv", file)).toEqual([
      { line: 2, fields: { id: "r1", input: 'say "hi", then\nleave', note: "日本語" } },
      { line: 4, fields: { id: "r2", input: { a: [1, 2] }, note: 42 } },
      { line: 5, fields: { id: "r3", note: "42" } },
    ]);
  });

  it("names the line of an unclosed quote, a short line, a duplicate header, and refuses an empty file", async () => {
    expect((await failure("csv", 'id,input\nr1,ok\nr2,"never closed\n')).details).toMatchObject({ line: 3 });
    const short = await failure("csv", "id,input\nr1,ok\nr2\n");
    expect(short.message).toMatch(/^Line 3: the line has another number of fields than the header row/);
    const duplicate = await failure("csv", "id,input,input\nr1,a,b\n");
    expect(duplicate.message).toBe('Line 1: the header names "input" twice (columns 2 and 3)');
    expect((await failure("csv", "")).message).toMatch(/empty/);
  });

  it("refuses a header with more fields than a file may have, counting quoted commas as text", async () => {
    // Quoted names with commas, quotes and line breaks in them are one field each.
    const names = Array.from({ length: MAX_FILE_FIELDS }, (_, i) => `"f${i}, ""x""\n"`);
    const wide = `\r\n\r\n${names.join(",")}\r\n${names.map((_, i) => i).join(",")}\r\n`;
    const [record] = await read("csv", wide, 4096);
    expect(Object.keys(record?.fields ?? {})).toHaveLength(MAX_FILE_FIELDS);
    const refused = await failure("csv", `\r\n\r\n${names.join(",")},one more\r\n`);
    expect(refused.message).toMatch(/^Line 3: the header row has more than 1016 fields; a file may have/);
    expect(refused.details).toEqual({ line: 3, limit: MAX_FILE_FIELDS });
  });

  it("fails, and does not hang, when a long line arrives in one piece or in many", async () => {
    const long = "input,output\nb1,one\nb2,two,three\nb3,four\n";
    for (const size of [1, 3, long.length]) {
      const bytes = new TextEncoder().encode(long);
      async function* chunks() {
        for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
      }
      const reading = (async () => {
        for await (const _ of readRecords("csv", chunks(), { bytesRead: 0 })) void _;
      })();
      await expect(reading).rejects.toThrow(/^Line 3: the line has another number of fields/);
    }
  });

  it("refuses a NUL byte, which no text holds, naming its line", async () => {
    const refused = await failure("jsonl", '{"input":1}\n{"input":2}\u0000\n');
    expect(refused.message).toBe("Line 2: the file holds a NUL byte: it is binary, not text");
    expect(refused.details).toEqual({ line: 2, reason: "nul_byte" });
  });

  it("refuses bytes that are not UTF-8, naming the line", async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode("id,input\nr1,ok\nr2,"), 0xff, 0xfe, 10]);
    const refused = await failure("csv", bytes);
    expect(refused.message).toMatch(/^Line 3: the file is not valid UTF-8/);
  });
});

describe("JSONL", () => {
  it("reads one object per line, skipping blank lines, with CRLF too", async () => {
    expect(await read("jsonl", '{"input":"a\\nb"}\r\n\n{"input":{"x":"ü"}}')).toEqual([
      { line: 1, fields: { input: "a\nb" } },
      { line: 3, fields: { input: { x: "ü" } } },
    ]);
  });

  it("refuses an object with more fields than a file may have, its custom object counted", async () => {
    const fields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    const fits = JSON.stringify({ id: "a", custom: fields(MAX_FILE_FIELDS - 2) });
    expect(await read("jsonl", `${fits}\n`, 4096)).toHaveLength(1);
    const wide = JSON.stringify({ id: "a", custom: fields(MAX_FILE_FIELDS - 1) });
    const refused = await failure("json", `[${fits},\n${wide}]`);
    expect(refused.message).toMatch(/^Line 2: the object has 1017 fields; a file may have at most 1016/);
    expect(refused.details).toEqual({ line: 2, limit: MAX_FILE_FIELDS });
  });

  it("names the line of bad JSON and of a value that is not an object", async () => {
    expect((await failure("jsonl", '{"input":1}\n{"input":\n')).message).toMatch(/^Line 2: not valid JSON/);
    expect((await failure("jsonl", '{"input":1}\n[1]\n')).message).toBe(
      "Line 2: each record must be a JSON object of fields",
    );
    expect((await failure("jsonl", "\n\n")).message).toMatch(/empty/);
  });

  it("refuses a number beyond a double's range, which would be stored as null, in any format", async () => {
    const refused = {
      message: "Line 2: a number is beyond the range of a double (about 1.8e308); write it as a string",
      details: { line: 2, reason: "number_out_of_range" },
    };
    expect(await failure("jsonl", '{"input":1}\n{"input":{"deep":[1e400]}}\n')).toEqual(refused);
    expect(await failure("jsonl", `{"input":1}\n{"input":-${"9".repeat(310)}}\n`)).toEqual(refused);
    expect(await failure("json", '[{"input":1},\n{"output":1E+0400}]')).toEqual(refused);
    expect(await failure("csv", "input\n1e400\n")).toEqual(refused);
    // Large but finite numbers, and text that only looks like one, are kept.
    expect(await read("jsonl", '{"input":1e308,"output":"1e400"}\n')).toEqual([
      { line: 1, fields: { input: 1e308, output: "1e400" } },
    ]);
  });

  it("refuses a number with more digits than a double holds, which would be stored rounded, in any format", async () => {
    const refused = {
      message:
        "Line 2: the number 12345678901234567890 cannot be stored exactly (a number keeps about 15 significant digits); write it as a string",
      details: { line: 2, reason: "inexact_number" },
    };
    expect(await failure("jsonl", '{"input":1}\n{"input":{"id":12345678901234567890}}\n')).toEqual(refused);
    expect(await failure("json", '[{"input":1},\n{"output":[12345678901234567890]}]')).toEqual(refused);
    expect(await failure("csv", "input\n12345678901234567890\n")).toEqual(refused);
    // The same digits as text are text; numbers a double holds are kept, however written.
    expect(
      await read("csv", 'input,output\nid 12345678901234567890,"""12345678901234567890"""\n'),
    ).toMatchObject([{ fields: { input: "id 12345678901234567890", output: "12345678901234567890" } }]);
    expect(await read("jsonl", '{"input":0.30000000000000004,"output":"12345678901234567890"}\n')).toEqual([
      { line: 1, fields: { input: 0.30000000000000004, output: "12345678901234567890" } },
    ]);
  });
});

describe("JSON array", () => {
  it("reads each element as it completes, strings with brackets and escapes included", async () => {
    const file = '[\n  {"input": "a ] b, \\" c"},\n  {"input": {"nested": [1, {"x": "}"}]}}\n]\n';
    expect(await read("json", file)).toEqual([
      { line: 2, fields: { input: 'a ] b, " c' } },
      { line: 3, fields: { input: { nested: [1, { x: "}" }] } } },
    ]);
  });

  it("refuses what is not an array of objects, an empty array, a trailing comma and an unclosed array", async () => {
    expect((await failure("json", '{"input": 1}')).message).toMatch(/must be an array of objects/);
    expect((await failure("json", "[]")).message).toMatch(/empty array/);
    expect((await failure("json", '[{"a":1},\n]')).message).toBe("Line 2: an empty element in the array");
    expect((await failure("json", '[{"a":1},\n{"a":2}')).message).toMatch(/never closed/);
    expect((await failure("json", '[{"a":1}, 5]')).message).toBe(
      "Line 1: each record must be a JSON object of fields",
    );
  });
});

describe("CSV field text", () => {
  it("keeps each field as written, for row ids that look like numbers", async () => {
    async function* chunks() {
      yield new TextEncoder().encode("id,input\n1e5,x\n007,y\n");
    }
    const records = [];
    for await (const record of readRecords("csv", chunks(), { bytesRead: 0 })) records.push(record);
    expect(records.map((record) => [record.fields.id, record.text?.id])).toEqual([
      [100000, "1e5"],
      ["007", "007"],
    ]);
  });
});

describe("CSV fields kept as text", () => {
  it("reads 42, true, null and JSON in those fields as the strings written, and types the others", async () => {
    async function* chunks() {
      yield new TextEncoder().encode(
        'zip,answer,score\n02134,true,42\n"{""a"":1}",null,1e400\n,\'=1+2,"""q"""\n',
      );
    }
    const records: Record<string, unknown>[] = [];
    // 1e400 would not be refused in a text field: it is text there, not an inexact number.
    const readAsText = readRecords("csv", chunks(), { bytesRead: 0 }, new Set(["zip", "answer", "score"]));
    for await (const record of readAsText) records.push(record.fields);
    expect(records).toEqual([
      { zip: "02134", answer: "true", score: "42" },
      { zip: '{"a":1}', answer: "null", score: "1e400" },
      // An empty field is still no value, and the apostrophe of an escaped formula still goes.
      { answer: "=1+2", score: '"q"' },
    ]);
  });
});
