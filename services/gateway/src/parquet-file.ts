import { ByteWriter, ParquetWriter, type SchemaElement } from "hyparquet-writer";

/** Rows gathered into one row group: about this much of their JSON text (a few thousand rows). */
const ROW_GROUP_CHARS = 8 * 2 ** 20;

/**
 * A Parquet file written as its rows arrive, for an export: `pieces` are lines of JSON arrays, the
 * row id then the cells in the order of `headers` after the first (`id`). The id is a string column;
 * every cell column is a JSON column (a cell holds any JSON value), null where the cell is unset, so
 * that reading the file back gives each cell exactly. Memory holds one row group, not the file.
 */
export async function* parquetFile(
  headers: readonly string[],
  pieces: AsyncIterable<string>,
): AsyncIterable<Uint8Array> {
  const [idHeader = "id", ...cellHeaders] = headers;
  const schema: SchemaElement[] = [
    { name: "root", num_children: headers.length },
    { name: idHeader, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "REQUIRED" },
    ...cellHeaders.map(
      (name): SchemaElement => ({
        name,
        type: "BYTE_ARRAY",
        converted_type: "JSON",
        repetition_type: "OPTIONAL",
      }),
    ),
  ];
  const bytes = new ByteWriter();
  const file = new ParquetWriter({ writer: bytes, schema, codec: "SNAPPY" });
  const written = () => {
    const out = bytes.getBytes().slice();
    bytes.index = 0;
    return out;
  };
  let rows: unknown[][] = [];
  let chars = 0;
  const rowGroup = async () => {
    if (rows.length === 0) return;
    const group = rows;
    rows = [];
    chars = 0;
    await file.write({
      columnData: headers.map((name, i) => ({
        name,
        data: group.map((row) => (i === 0 ? row[i] : asJsonCell(row[i] ?? null))),
      })),
      rowGroupSize: group.length,
    });
  };

  for await (const text of pieces) {
    for (const line of text.split("\n")) if (line !== "") rows.push(JSON.parse(line) as unknown[]);
    chars += text.length;
    if (chars >= ROW_GROUP_CHARS) {
      await rowGroup();
      yield written();
    }
  }
  await rowGroup();
  await file.finish();
  yield written();
}

/**
 * A cell as the writer's JSON column takes it. The writer copies a value's objects key by key into
 * new plain objects before it writes their JSON, and a key `__proto__` copied so sets the copy's
 * prototype: `{"__proto__": {"x": 1}}` was written as `{}`. An object without a prototype is not
 * copied, but written as JSON as it is (nested objects with it); arrays are copied item by item.
 */
function asJsonCell(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asJsonCell);
  if (typeof value !== "object" || value === null) return value;
  const cell: Record<string, unknown> = Object.create(null);
  for (const [key, item] of Object.entries(value)) cell[key] = item;
  return cell;
}
