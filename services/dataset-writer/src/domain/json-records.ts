import { DomainError, MAX_FILE_FIELDS } from "@svc/contracts";
import type { FileRecord } from "./file-record";
import { badLine, checkNumbers, MAX_RECORD_CHARS, tooManyFields } from "./record-checks";

/** The records of a JSONL file: a JSON object per line, blank lines passed over. */
export async function* readJsonLines(text: AsyncIterable<string>): AsyncIterable<FileRecord> {
  let any = false;
  for await (const { line, text: content } of linesOf(text)) {
    const trimmed = content.replace(/^\uFEFF/, "").trim();
    if (trimmed === "") continue;
    any = true;
    yield { line, fields: parseObject(trimmed, line) };
  }
  if (!any)
    throw new DomainError(
      "validation_failed",
      "The file is empty: a JSONL file needs one JSON object per line",
      { line: 1 },
    );
}

/** Splits text into lines, each with its number; a line longer than the limit fails. */
async function* linesOf(text: AsyncIterable<string>): AsyncIterable<{ line: number; text: string }> {
  let buffered = "";
  let line = 1;
  for await (const piece of text) {
    buffered += piece;
    let end = buffered.indexOf("\n");
    while (end >= 0) {
      yield { line, text: buffered.slice(0, end).replace(/\r$/, "") };
      line++;
      buffered = buffered.slice(end + 1);
      end = buffered.indexOf("\n");
    }
    if (buffered.length > MAX_RECORD_CHARS)
      throw badLine(line, `the line is longer than ${MAX_RECORD_CHARS} characters`);
  }
  if (buffered.replace(/\r$/, "").length > 0) yield { line, text: buffered.replace(/\r$/, "") };
}

function parseObject(text: string, line: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badLine(line, `not valid JSON (${(error as Error).message})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badLine(line, "each record must be a JSON object of fields");
  }
  checkWidth(value as Record<string, unknown>, line);
  checkNumbers(value, text, line);
  return value as Record<string, unknown>;
}

/** Refuses an object with more fields than a file may have, its `custom` object's counted with it. */
function checkWidth(fields: Record<string, unknown>, line: number): void {
  const custom = Object.hasOwn(fields, "custom") ? fields.custom : undefined;
  const width =
    Object.keys(fields).length +
    (typeof custom === "object" && custom !== null && !Array.isArray(custom)
      ? Object.keys(custom).length
      : 0);
  if (width > MAX_FILE_FIELDS) throw tooManyFields(line, `the object has ${width} fields`);
}

/**
 * The elements of a top-level JSON array, each parsed on its own as soon as its text is complete:
 * the scanner only tracks strings and nesting to find where an element ends.
 */
export async function* readJsonArray(text: AsyncIterable<string>): AsyncIterable<FileRecord> {
  let state: "before" | "element" | "done" = "before";
  let line = 1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let element = "";
  let elementLine = 1;
  let afterComma = false;
  let any = false;
  const take = (): FileRecord => {
    const record = { line: elementLine, fields: parseObject(element, elementLine) };
    element = "";
    any = true;
    return record;
  };
  for await (const piece of text) {
    for (let i = 0; i < piece.length; i++) {
      const char = piece[i] as string;
      if (char === "\n") line++;
      if (state === "element") {
        if (inString) {
          if (escaped) escaped = false;
          else if (char === "\\") escaped = true;
          else if (char === '"') inString = false;
          element += char;
          continue;
        }
        if (depth === 0 && (char === "," || char === "]")) {
          if (element === "" && (char === "," || afterComma))
            throw badLine(line, "an empty element in the array");
          if (element !== "") yield take();
          afterComma = char === ",";
          if (char === "]") state = "done";
          continue;
        }
        if (char === '"') inString = true;
        else if (char === "{" || char === "[") depth++;
        else if (char === "}" || char === "]") depth--;
        if (element === "" && /\s/.test(char)) continue;
        if (element === "") elementLine = line;
        element += char;
        if (element.length > MAX_RECORD_CHARS) {
          throw badLine(elementLine, `the element is longer than ${MAX_RECORD_CHARS} characters`);
        }
        continue;
      }
      if (/\s|\uFEFF/.test(char)) continue;
      if (state === "before" && char === "[") {
        state = "element";
        continue;
      }
      throw badLine(
        line,
        state === "before"
          ? "a JSON file must be an array of objects: [ {…}, {…} ]"
          : "text after the end of the array",
      );
    }
  }
  if (state === "before") {
    throw new DomainError("validation_failed", "The file is empty: a JSON file needs an array of objects", {
      line: 1,
    });
  }
  if (state !== "done") throw badLine(line, "the array is never closed: the file ends inside it");
  if (!any)
    throw new DomainError("validation_failed", "The file holds an empty array: there is nothing to import", {
      line: 1,
    });
}
