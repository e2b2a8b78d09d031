import { firstInvalidByte, type ImportFormat } from "@svc/contracts";
import { readCsv } from "./csv-records";
import type { FileRecord, ReadProgress } from "./file-record";
import { readJsonArray, readJsonLines } from "./json-records";
import { badLine } from "./record-checks";

/**
 * The records of a file, read as it streams in: CSV (RFC 4180, a header row), JSONL (an object per
 * line) or a JSON array of objects. Memory holds one record at a time. A malformed record throws a
 * `validation_failed` naming its line; so does text that is not UTF-8. A CSV file's `textFields` are
 * read as text, whatever they look like.
 */
export function readRecords(
  format: ImportFormat,
  chunks: AsyncIterable<Uint8Array>,
  progress: ReadProgress,
  textFields?: ReadonlySet<string>,
): AsyncIterable<FileRecord> {
  const text = decodeUtf8(chunks, progress);
  if (format === "csv") return readCsv(text, textFields);
  if (format === "jsonl") return readJsonLines(text);
  return readJsonArray(text);
}

/** Text pieces with the line each starts on; bytes that are not UTF-8 fail on the line they are on. */
async function* decodeUtf8(chunks: AsyncIterable<Uint8Array>, progress: ReadProgress): AsyncIterable<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  let line = 1;
  for await (const chunk of chunks) {
    progress.bytesRead += chunk.byteLength;
    let piece: string;
    try {
      piece = decoder.decode(chunk, { stream: true });
    } catch {
      const bad = firstInvalidByte(chunk);
      let at = line;
      for (let i = 0; i < bad; i++) if (chunk[i] === 0x0a) at++;
      throw badLine(at, "the file is not valid UTF-8 text; save it as UTF-8 and upload it again", {
        offset: progress.bytesRead - chunk.byteLength + bad,
      });
    }
    const nul = piece.indexOf("\u0000");
    if (nul >= 0) {
      throw badLine(
        line + countNewlines(piece.slice(0, nul)),
        "the file holds a NUL byte: it is binary, not text",
        {
          reason: "nul_byte",
        },
      );
    }
    line += countNewlines(piece);
    yield piece;
  }
  try {
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch {
    throw badLine(line, "the file ends inside a UTF-8 character; it is not valid UTF-8 text");
  }
}

function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) count++;
  return count;
}
