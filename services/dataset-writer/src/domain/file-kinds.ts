import { DomainError, type ImportFormat } from "@svc/contracts";

/** How much of a file's start is looked at to tell what it is. */
const SNIFF_BYTES = 4096;

/** Files that are not text, by how they begin, named as a person would know them. */
const BINARY_KINDS: { magic: number[]; kind: string; hint?: string }[] = [
  {
    magic: [0x50, 0x41, 0x52, 0x31],
    kind: "a Parquet file",
    hint: "send it as application/vnd.apache.parquet",
  },
  { magic: [0x89, 0x50, 0x4e, 0x47], kind: "a PNG image" },
  { magic: [0xff, 0xd8, 0xff], kind: "a JPEG image" },
  { magic: [0x47, 0x49, 0x46, 0x38], kind: "a GIF image" },
  { magic: [0x25, 0x50, 0x44, 0x46], kind: "a PDF document" },
  {
    magic: [0x1f, 0x8b],
    kind: "a gzip file",
    hint: "send the file itself, or the gzip with Content-Encoding: gzip",
  },
  {
    magic: [0x50, 0x4b, 0x03, 0x04],
    kind: "a zip archive (or an Excel workbook)",
    hint: "export it as CSV first",
  },
  { magic: [0x28, 0xb5, 0x2f, 0xfd], kind: "a zstd file" },
];

/** The first bytes of a file (up to SNIFF_BYTES), its stream closed after them. */
export async function firstBytes(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    parts.push(chunk);
    length += chunk.byteLength;
    if (length >= SNIFF_BYTES) break;
  }
  return Buffer.concat(parts).subarray(0, SNIFF_BYTES);
}

/**
 * Refuses a file whose first bytes show it is not what its format says: a Parquet file that does
 * not begin with `PAR1`, or text (CSV, JSONL, JSON) that begins like a known binary file or holds a
 * NUL byte, which no text file does. `415 unsupported_media_type`, naming what the file looks like.
 */
export function checkFileKind(format: ImportFormat, start: Uint8Array): void {
  const begins = (magic: number[]) => magic.every((byte, i) => start[i] === byte);
  if (format === "parquet") {
    if (begins([0x50, 0x41, 0x52, 0x31])) return;
    const known = BINARY_KINDS.find((kind) => begins(kind.magic));
    throw notThe(
      format,
      `The file is not a Parquet file: a Parquet file begins with "PAR1", and this one ${known ? `looks like ${known.kind}` : "does not"}; send CSV, JSONL or JSON with their own Content-Type`,
    );
  }
  const known = BINARY_KINDS.find((kind) => begins(kind.magic));
  if (known) {
    throw notThe(
      format,
      `The file looks like ${known.kind}, not ${format.toUpperCase()} text${known.hint ? `; ${known.hint}` : ""}`,
    );
  }
  const nul = start.indexOf(0);
  if (nul >= 0) {
    throw notThe(
      format,
      `The file holds a NUL byte (at byte ${nul + 1}): it is binary, not ${format.toUpperCase()} text; save it as UTF-8 text and upload it again`,
      { offset: nul },
    );
  }
}

const notThe = (format: ImportFormat, message: string, details: Record<string, unknown> = {}) =>
  new DomainError("unsupported_media_type", message, { format, line: 1, ...details });
