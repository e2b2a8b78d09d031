import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DomainError } from "@svc/contracts";
import { parquetWriteBuffer } from "hyparquet-writer";
import { afterAll, describe, expect, it } from "vitest";
import type { FileRecord } from "./file-record";
import { jsonOf, readParquet } from "./parquet-records";

const dir = mkdtempSync(join(tmpdir(), "svc-parquet-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, bytes: ArrayBuffer | Uint8Array | string): string {
  const path = join(dir, name);
  writeFileSync(path, typeof bytes === "string" ? bytes : new Uint8Array(bytes));
  return path;
}

async function read(path: string): Promise<{ records: FileRecord[]; bytesRead: number }> {
  const progress = { bytesRead: 0 };
  const records: FileRecord[] = [];
  for await (const record of readParquet(path, progress)) records.push(record);
  return { records, bytesRead: progress.bytesRead };
}

describe("Parquet files", () => {
  it("reads every row group's rows in order, each value as the JSON a cell holds", async () => {
    const rows = 2_500;
    const bytes = parquetWriteBuffer({
      columnData: [
        { name: "id", data: Array.from({ length: rows }, (_, i) => `r${i}`), type: "STRING" },
        {
          name: "question",
          data: Array.from({ length: rows }, (_, i) => `ünï ${i}, "quoted"\nline`),
          type: "STRING",
        },
        {
          name: "n",
          data: Array.from({ length: rows }, (_, i) => BigInt(i) * 10_000_000_000_000n),
          type: "INT64",
        },
        {
          name: "score",
          data: Array.from({ length: rows }, (_, i) => (i % 3 === 0 ? null : i / 4)),
          type: "DOUBLE",
        },
        { name: "ok", data: Array.from({ length: rows }, (_, i) => i % 2 === 0), type: "BOOLEAN" },
        { name: "meta", data: Array.from({ length: rows }, (_, i) => ({ i })), type: "JSON" },
      ],
      rowGroupSize: 1_000,
    });
    const path = file("rows.parquet", bytes);
    const { records, bytesRead } = await read(path);
    expect(records).toHaveLength(rows);
    expect(records.map((record) => record.line)).toEqual(Array.from({ length: rows }, (_, i) => i + 1));
    expect(records[0]?.fields).toEqual({
      id: "r0",
      question: 'ünï 0, "quoted"\nline',
      n: 0,
      ok: true,
      meta: { i: 0 },
    });
    // A null gives no value (the cell is left as it is, or unset), as an empty CSV field does.
    expect(records[0]?.fields).not.toHaveProperty("score");
    // A 64-bit integer past 2^53 keeps its digits, as text.
    expect(records[2_499]?.fields).toMatchObject({
      id: "r2499",
      n: "24990000000000000",
      ok: false,
    });
    expect(records[2_498]?.fields).toMatchObject({
      id: "r2498",
      n: "24980000000000000",
      score: 624.5,
      ok: true,
    });
    expect(records[1]?.fields).toMatchObject({ n: 10_000_000_000_000, score: 0.25 });
    expect(bytesRead).toBe(bytes.byteLength);
  });

  it("refuses a file that is not Parquet, and a truncated one, as a bad file", async () => {
    const errorOf = async (path: string) => {
      try {
        await read(path);
      } catch (error) {
        if (error instanceof DomainError) return error;
        throw error;
      }
      throw new Error("expected the file to be refused");
    };
    const text = await errorOf(file("text.parquet", "id,input\nr1,a\n"));
    expect(text.code).toBe("validation_failed");
    expect(text.message).toMatch(/^The file is not a Parquet file that can be read/);
    const whole = new Uint8Array(
      parquetWriteBuffer({ columnData: [{ name: "id", data: ["a", "b"], type: "STRING" }] }),
    );
    const cut = await errorOf(file("cut.parquet", whole.slice(0, whole.length - 10)));
    expect(cut.code).toBe("validation_failed");
  });

  it("writes times as ISO-8601, bytes as base64 and non-finite numbers as text", () => {
    expect(jsonOf(new Date("2026-01-02T03:04:05.006Z"))).toBe("2026-01-02T03:04:05.006Z");
    expect(jsonOf(new Uint8Array([0, 255, 16]))).toBe("AP8Q");
    expect(jsonOf(Number.NaN)).toBe("NaN");
    expect(jsonOf({ list: [1n, { deep: undefined }] })).toEqual({ list: [1, { deep: null }] });
  });
});
