import fc from "fast-check";

/*
 * What breaks servers: the values, keys, path segments and bodies the fuzz suite mixes into otherwise
 * valid requests. Some can only be written as JSON text (1e400, -0, nesting 10,000 deep): `Raw` holds
 * such text where a value would go, and `serialize` writes it as it is.
 */

export class Raw {
  constructor(readonly text: string) {}
}

/** JSON text of a value that may hold `Raw` pieces and `__proto__` keys (as own keys, written out). */
export function serialize(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(serialize).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value)
      .map((key) => `${JSON.stringify(key)}:${serialize((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** An object with these entries as own keys, `__proto__` included (an object literal would set the prototype). */
export const objectOf = (entries: [string, unknown][]): Record<string, unknown> =>
  Object.fromEntries(entries);

const deep = (levels: number, open: string, close: string, leaf: string) =>
  new Raw(`${open.repeat(levels)}${leaf}${close.repeat(levels)}`);

export const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "x\ud83d",
  "😀",
  "é",
  "e\u0301",
  "\u202e",
  "\ufeff",
  "\r\n",
  "../../../etc/passwd",
  "..",
  "%2e%2e%2f",
  "..\\..\\windows",
  "%00",
  "%",
  "' OR '1'='1",
  "'; DROP TABLE datasets; --",
  '" OR 1=1 --',
  "1; SELECT pg_sleep(10)",
  "$1",
  "\\x00",
  "%_",
  "*",
  "<script>alert(1)</script>",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, on purpose
  "${7*7}",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "NaN",
  "Infinity",
  "-0",
  "1e400",
  "9007199254740993",
  "-1",
  "0",
  "true",
  "null",
  "[]",
  "{}",
  "new:",
  "new:__proto__",
];

export const NASTY_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "",
  "a\u0000",
  "\ud800",
  "x".repeat(200),
  "$where",
  "a.b",
  "input",
  "zzUnknown",
];

/** Values that break a field: wrong types, extremes, and text no database can store. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  {
    weight: 4,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      0,
      -1,
      1.5,
      2 ** 53 + 2,
      [],
      {},
      [null],
      { a: 1 },
      new Raw("1e400"),
      new Raw("-1e400"),
      new Raw("-0"),
      new Raw("1e-400"),
      new Raw("12345678901234567890123"),
      new Raw("0.1e1"),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      objectOf([["__proto__", { polluted: true }]]),
      objectOf([["constructor", { prototype: { polluted: true } }]]),
      objectOf([
        ["__proto__", 1],
        ["prototype", 2],
      ]),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      "x".repeat(70_000),
      new Raw(`[${"0,".repeat(20_000)}0]`),
      deep(10_000, "[", "]", "1"),
      deep(10_000, '{"a":', "}", "1"),
      deep(150, "[", "]", '"leaf"'),
      Array.from({ length: 1_001 }, (_, i) => ({ id: `n${i}`, input: i })),
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
);

/** Whole bodies that are not what any operation takes, as text or raw bytes. */
export const NASTY_BODIES: { label: string; bytes: Uint8Array }[] = [
  ...(
    [
      ["empty", ""],
      ["whitespace", " \n\t"],
      ["not JSON", "{nope"],
      ["trailing garbage", '{"name":"x"} trailing'],
      ["two documents", '{"name":"x"}{"name":"y"}'],
      ["an array", "[1,2,3]"],
      ["a string", '"text"'],
      ["a number", "42"],
      ["1e400", "1e400"],
      ["null", "null"],
      ["duplicate keys", '{"name":"a","name":"b"}'],
      ["a BOM", '\ufeff{"name":"x"}'],
      ["single quotes", "{'name':'x'}"],
      ["a comment", '{"name":"x" /* c */}'],
      ["NaN", '{"name":NaN}'],
      ["deep arrays", `${"[".repeat(10_000)}${"]".repeat(10_000)}`],
      ["deep objects", `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`],
      ["a __proto__ body", '{"__proto__":{"polluted":true}}'],
      ["a constructor body", '{"constructor":{"prototype":{"polluted":true}}}'],
      ["U+0000 escaped", '{"name":"a\\u0000b"}'],
      ["a lone surrogate escaped", '{"name":"\\ud800"}'],
      ["a huge string", `{"name":"${"x".repeat(1_200_000)}"}`],
    ] as const
  ).map(([label, text]) => ({ label, bytes: Buffer.from(text) })),
  {
    label: "invalid UTF-8",
    bytes: Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  },
  { label: "an overlong UTF-8 form", bytes: Buffer.from([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x3a, 0x31, 0x7d]) },
  { label: "UTF-16", bytes: Buffer.from('{"name":"x"}', "utf16le") },
  { label: "bytes", bytes: Uint8Array.from([0, 1, 2, 255, 254, 0x1f, 0x8b]) },
];
export const nastyBody = fc.constantFrom(...NASTY_BODIES);

/** Path segments, written into the URL as they are (already escaped where they need to be). */
export const NASTY_SEGMENTS = [
  "..",
  ".",
  "%2e%2e",
  "..%2f..%2fetc",
  "%2F",
  "%",
  "%zz",
  "%FF",
  "%C3%28",
  "%00",
  "%ED%A0%80",
  "a".repeat(1_500),
  "a".repeat(129),
  "~",
  "a;b=c",
  "%27%20OR%20%271%27%3D%271",
  "%27%3B%20DROP%20TABLE%20datasets%3B%20--",
  "__proto__",
  "constructor",
  "%F0%9F%98%80",
  "UPPER",
  "-",
  "0",
  "-1",
  "1e400",
  "1.5",
  "99999999999999999999",
  "00000000000000000000000000000000",
  "aaaaaaaaaaaaaaaaaaaaaaaa",
];

/** Query values, escaped or raw: the server must decode each strictly. */
export const NASTY_QUERY_VALUES = [
  "",
  "%FF",
  "%C3%28",
  "100%",
  "%zz",
  "%00",
  "a%00b",
  "%ED%A0%80",
  "-1",
  "-0",
  "1.5",
  "1e400",
  "99999999999999999999",
  "abc",
  "true",
  "TRUE",
  "null",
  "%27%20OR%201%3D1",
  "..%2F..%2F",
  "a".repeat(3_000),
  "__proto__",
  "%7B%7D",
];

export const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=utf-16",
  "application/merge-patch+json",
  "APPLICATION/JSON",
  "application/json;",
  "application/jsonx",
  "application/json, text/plain",
  "text/plain",
  "text/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "text/csv",
  "application/x-ndjson",
  "application/vnd.apache.parquet",
  "application/x-protobuf",
  "application/octet-stream",
  "*/*",
  "",
];
