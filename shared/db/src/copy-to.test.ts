import { Kysely, PostgresDialect, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "./connect";
import { CopyBinaryRows, timestampText, withLiterals } from "./copy-to";
import type { Database } from "./schema";
import { databaseBackends } from "./testing";

const backends = databaseBackends("copyto", 2);

/** Texts a literal must carry exactly: quotes, backslashes, what looks like a placeholder. */
const AWKWARD = ["it's", "back\\slash", "\\'", "$1", "E'x'", "tab\tnew\nline", "Größe 🦜", ""];

/** The rows COPY wrote, fed to the reader in the pieces `cut` makes. */
function readRows(bytes: Uint8Array, fields: number, cut: (bytes: Uint8Array) => Uint8Array[]) {
  const reader = new CopyBinaryRows(fields);
  const rows: (string | null)[][] = [];
  for (const piece of cut(bytes)) {
    reader.push(piece, (row) => {
      rows.push(
        Array.from({ length: fields }, (_, i) =>
          reader.start[i] === -1 ? null : row.toString("hex", reader.start[i], reader.end[i]),
        ),
      );
    });
  }
  reader.finish();
  return rows;
}

const whole = (bytes: Uint8Array) => [bytes];
const byteByByte = (bytes: Uint8Array) => Array.from(bytes, (byte) => Uint8Array.of(byte));

describe.each(backends)("COPY TO in binary format (%s)", (_, open) => {
  let database: DatabaseHandle;
  let drop: (() => Promise<void>) | undefined;
  const copied = async (query: string) => {
    const pieces: Uint8Array[] = [];
    for await (const piece of database.copyTo(query)) pieces.push(piece);
    return Buffer.concat(pieces);
  };

  beforeAll(async () => {
    ({ database, drop } = await open());
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it("reads every row and field, NULL apart from empty, however the bytes are cut", async () => {
    const bytes = await copied(
      "SELECT n::text, CASE WHEN n % 3 = 0 THEN NULL ELSE repeat('é', n % 4) END, jsonb_build_object('n', n)::text FROM generate_series(1, 40) n",
    );
    const rows = readRows(bytes, 3, whole);
    expect(rows).toHaveLength(40);
    expect(rows[2]?.[1]).toBeNull();
    expect(rows[4]?.[1]).toBe(Buffer.from("é").toString("hex"));
    expect(rows[7]?.[1]).toBe(""); // 8 % 4 = 0: an empty text, not NULL
    expect(Buffer.from(rows[9]?.[2] ?? "", "hex").toString()).toBe('{"n": 10}');
    expect(readRows(bytes, 3, byteByByte)).toEqual(rows);
  });

  it("writes a compiled query's parameters into its text as literals that mean the same", async () => {
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: {} as never }) });
    for (const value of AWKWARD) {
      const query = sql`SELECT ${value}::text AS text, ${42}::int AS n, ${true}::bool AS yes`.compile(db);
      const [row] = readRows(await copied(withLiterals(query)), 3, whole);
      expect(Buffer.from(row?.[0] ?? "", "hex").toString()).toBe(value);
      expect(row?.slice(1)).toEqual(["0000002a", "01"]);
    }
    expect(() => withLiterals({ sql: "SELECT $1", parameters: ["a\0b"] })).toThrow(/U\+0000/);
    expect(() => withLiterals({ sql: "SELECT $1", parameters: [{}] })).toThrow(/no literal/);
  });

  it("reads a timestamptz field as UTC text with microseconds", async () => {
    const bytes = await copied(
      "SELECT t FROM unnest(ARRAY['2025-01-02T03:04:05.123456Z', '1999-12-31T23:59:59.999999Z', '2000-01-01T00:00:00.000001Z']::timestamptz[]) t",
    );
    const reader = new CopyBinaryRows(1);
    const texts: string[] = [];
    reader.push(bytes, (row) => texts.push(timestampText(row, reader.start[0] as number)));
    expect(texts).toEqual([
      "2025-01-02T03:04:05.123456Z",
      "1999-12-31T23:59:59.999999Z",
      "2000-01-01T00:00:00.000001Z",
    ]);
  });
});

describe("COPY's binary format, read by hand", () => {
  it("refuses what is not that format, a row of the wrong width, and rows cut short", () => {
    expect(() =>
      new CopyBinaryRows(1).push(Buffer.from("not a copy stream at all"), () => undefined),
    ).toThrow(/not COPY's binary format/);
    const header = Buffer.concat([Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)]);
    const row = Buffer.from([0, 2, 0, 0, 0, 1, 0x61, 0xff, 0xff, 0xff, 0xff]);
    expect(() => new CopyBinaryRows(1).push(Buffer.concat([header, row]), () => undefined)).toThrow(
      /2 fields, not 1/,
    );
    const cutShort = new CopyBinaryRows(2);
    cutShort.push(Buffer.concat([header, row.subarray(0, 5)]), () => undefined);
    expect(() => cutShort.finish()).toThrow(/end mid-way/);
  });
});
