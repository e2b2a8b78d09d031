import { z } from "zod";
import {
  paginationQuerySchema,
  sortDirectionSchema,
  versionNumberSchema,
  wholeNumberFromText,
} from "./common";

/* What a row list or a row read may ask: filters on cells, and a version to read at. */

/**
 * Column identifiers in a query: comma-separated, or the parameter repeated (`?missing=a&missing=b`).
 * At most 20, each a built-in field name or a custom column's identifier.
 */
const columnIdentifierListSchema = z.preprocess(
  (value) => (Array.isArray(value) ? value.join(",") : value),
  z
    .string()
    .regex(
      /^[A-Za-z0-9_]{1,64}(,[A-Za-z0-9_]{1,64}){0,19}$/,
      "must be up to 20 column identifiers separated by commas, such as expectedOutput",
    )
    .transform((text) => [...new Set(text.split(","))]),
);

/** One value filter: a cell, or a JSON path inside it, and the JSON value it must equal. */
export interface CellEquals {
  column: string;
  path: (string | number)[];
  value: unknown;
}

const WHERE_EXAMPLE = 'such as where=metadata.source="prod" or where=expectedOutput=4';

/** A column, then a JSON path inside it: dot-separated keys, a number indexing an array. */
const WHERE_TARGET = "[A-Za-z0-9_]{1,64}(?:\\.[^\\s=.]{1,128})*";
const WHERE_TARGET_PATTERN = new RegExp(`^${WHERE_TARGET}=`);

/** `column[.key|.index]*=<JSON>`. */
function parseWhere(text: string, ctx: z.RefinementCtx): CellEquals | typeof z.NEVER {
  if (!WHERE_TARGET_PATTERN.test(text)) {
    ctx.addIssue({
      code: "custom",
      message: `"${text.slice(0, 80)}" is not a column, or a malformed JSON path inside one, followed by =<JSON value>, ${WHERE_EXAMPLE}`,
    });
    return z.NEVER;
  }
  const at = text.indexOf("=");
  const target = text.slice(0, at);
  const [column = "", ...path] = target.split(".");
  let value: unknown;
  try {
    value = JSON.parse(text.slice(at + 1));
  } catch {
    ctx.addIssue({
      code: "custom",
      message: `the value after "${target}=" must be JSON (a string in double quotes), ${WHERE_EXAMPLE}`,
    });
    return z.NEVER;
  }
  return { column, path: path.map((key) => (/^(0|[1-9][0-9]{0,8})$/.test(key) ? Number(key) : key)), value };
}

// What `parseWhere` refuses, as far as a pattern can say it: the value's JSON it cannot check.
const whereItemSchema = z
  .string()
  .min(1, "must not be empty")
  .max(2000, "must be at most 2000 characters")
  .meta({ pattern: `^${WHERE_TARGET}=\\s*\\S` });
/** One filter, or several (the parameter repeated), each parsed by `parseWhere`. */
export const whereListSchema = z
  .union([whereItemSchema, z.array(whereItemSchema).max(10, "may be given at most 10 times")])
  .transform((given, ctx) => (Array.isArray(given) ? given : [given]).map((item) => parseWhere(item, ctx)));

/** What narrows a row list: a search, cells missing or present, cell values. */
const rowFilterFields = {
  search: z.string().min(1, "must not be empty").max(500, "must be at most 500 characters").optional(),
  missing: columnIdentifierListSchema
    .optional()
    .describe(
      "Only rows whose cell in each of these columns is absent or null, such as missing=expectedOutput: the rows that still need an expected output. Column identifiers, comma-separated or the parameter repeated",
    ),
  present: columnIdentifierListSchema
    .optional()
    .describe("Only rows whose cell in each of these columns is set and not null; as `missing`"),
  where: whereListSchema
    .optional()
    .describe(
      'Only rows whose cell, or the value at a JSON path inside it, equals a JSON value: `<column>[.<key or index>…]=<JSON>`, such as where=metadata.source="prod", where=expectedOutput=4 or where=metadata.tags.0="a". Repeat the parameter for several (all must hold)',
    ),
};
const versionQuery = versionNumberSchema.optional().describe("Read the dataset as it was at this version");

export const listRowsQuerySchema = paginationQuerySchema.extend({
  ...rowFilterFields,
  sortDirection: sortDirectionSchema.default("desc"),
  version: versionQuery,
  offset: wholeNumberFromText(
    z
      .number({ error: "must be a non-negative integer" })
      .int("must be a non-negative integer")
      .min(0, "must be a non-negative integer")
      .max(10_000_000, "must be at most 10000000"),
  )
    .optional()
    .describe(
      "Start the first page this many rows into the list (in its order and filters): a jump to a position, such as offset=500000. Only without a cursor; the page's nextCursor goes on from there",
    ),
});
/** The filters of a row list, without its paging: the rows a count counts. */
export const countRowsQuerySchema = z.strictObject({ ...rowFilterFields, version: versionQuery });

/** How many rows a dataset version holds, or how many of them the filters let through. */
export const rowCountSchema = z.object({
  count: z.number().int().describe("Rows that match, exact"),
  version: z.number().int().describe("The dataset version counted: the one asked for, or the current one"),
});

export const getRowQuerySchema = z.strictObject({
  version: versionNumberSchema.optional().describe("Read the row as it was at this version"),
});
