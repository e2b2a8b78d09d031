import { z } from "zod";
import { cuidSchema, rowIdSchema, slugSchema } from "../ids";
import {
  actorSchema,
  nameSchema,
  page,
  paginationQuerySchema,
  queryBooleanSchema,
  sortDirectionSchema,
  timestampSchema,
  versionNumberSchema,
  wholeNumberFromText,
} from "./common";
import { jsonValueSchema, recordOf } from "./proto-keys";

/** A cell is any JSON value; `{}` stays `{}`, `""` stays `""` and a key `__proto__` stays a key. */
export const cellSchema = jsonValueSchema;
export type Cell = z.infer<typeof cellSchema>;

export const builtinFields = ["input", "output", "expectedOutput", "metadata"] as const;
export const builtinFieldSchema = z.enum(builtinFields);
export type BuiltinField = z.infer<typeof builtinFieldSchema>;
export const isBuiltinField = (value: string): value is BuiltinField =>
  (builtinFields as readonly string[]).includes(value);

export const columnSourceSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("builtin"), field: builtinFieldSchema }),
  z.object({ kind: z.literal("custom") }),
]);

export const datasetColumnSchema = z.object({
  identifier: z.string(),
  name: z.string(),
  source: columnSourceSchema,
  removed: z.boolean().optional(),
});
export type DatasetColumn = z.infer<typeof datasetColumnSchema>;

export const datasetSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  projectId: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  columns: z.array(datasetColumnSchema),
  version: z.number().int(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type Dataset = z.infer<typeof datasetSchema>;

export const projectPathSchema = z.strictObject({ projectSlug: slugSchema });
export const datasetPathSchema = projectPathSchema.extend({ datasetSlug: slugSchema });
export const rowPathSchema = datasetPathSchema.extend({ rowId: rowIdSchema });
export const columnPathSchema = datasetPathSchema.extend({
  identifier: z
    .string()
    .min(1)
    .max(64)
    .describe("Column identifier: a built-in field name or a custom column id"),
});
export const versionPathSchema = datasetPathSchema.extend({ version: versionNumberSchema });

const descriptionSchema = z.string().max(2000, "must be at most 2000 characters").nullable();

export const listDatasetsQuerySchema = paginationQuerySchema.extend({
  sortBy: z.enum(["name", "updatedAt"]).default("updatedAt"),
  sortDirection: sortDirectionSchema.default("desc"),
});
export const createDatasetBodySchema = z.strictObject({
  name: nameSchema,
  description: descriptionSchema.optional(),
});
export const updateDatasetBodySchema = createDatasetBodySchema
  .partial()
  .refine((body) => Object.keys(body).length > 0, "must change at least one of name, description")
  .meta({ minProperties: 1 });

export const datasetRowSchema = z.object({
  rowId: z.string(),
  datasetId: z.string(),
  input: cellSchema.optional(),
  output: cellSchema.optional(),
  expectedOutput: cellSchema.optional(),
  metadata: cellSchema.optional(),
  custom: recordOf(z.string(), cellSchema),
  createdAt: timestampSchema,
  version: z.number().int(),
});
export type DatasetRow = z.infer<typeof datasetRowSchema>;

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
const whereListSchema = z
  .union([whereItemSchema, z.array(whereItemSchema).max(10, "may be given at most 10 times")])
  .transform((given, ctx) => (Array.isArray(given) ? given : [given]).map((item) => parseWhere(item, ctx)));

export const listRowsQuerySchema = paginationQuerySchema.extend({
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
  sortDirection: sortDirectionSchema.default("desc"),
  version: versionNumberSchema.optional().describe("Read the dataset as it was at this version"),
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
export const getRowQuerySchema = z.strictObject({
  version: versionNumberSchema.optional().describe("Read the row as it was at this version"),
});

const isEmptyObject = (value: unknown) =>
  typeof value === "object" && value !== null && Object.keys(value).length === 0;

/**
 * An edit's rule that `.refine` checks, as JSON Schema says it (the document cannot see a refine):
 * without a built-in cell, `custom` must name at least one cell. Said with if/then rather than anyOf,
 * which generated clients would read as a union of bodies instead of one body with a rule.
 */
const NAMES_A_CELL = {
  if: { properties: { input: false, output: false, expectedOutput: false, metadata: false } },
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, in a schema never awaited
  then: { required: ["custom"], properties: { custom: { minProperties: 1 } } },
};

const customCellsSchema = recordOf(z.string().min(1).max(128), cellSchema);

export const newRowSchema = z.strictObject({
  id: rowIdSchema.optional(),
  input: cellSchema,
  output: cellSchema.optional(),
  expectedOutput: cellSchema.optional(),
  metadata: cellSchema.optional(),
  custom: customCellsSchema.optional(),
});
export type NewRow = z.infer<typeof newRowSchema>;

export const insertRowsBodySchema = z.strictObject({
  rows: z.array(newRowSchema).min(1, "must hold at least one row").max(1000, "must hold at most 1000 rows"),
});
export type InsertRowsBody = z.infer<typeof insertRowsBodySchema>;

export const updateRowBodySchema = newRowSchema
  .omit({ id: true })
  .partial()
  .refine(
    (body) => Object.keys(body).length > 0,
    "must change at least one cell: input, output, expectedOutput, metadata or custom",
  )
  // `{"custom": {}}` alone changes nothing either, so it must not make a version.
  .refine((body) => !(Object.keys(body).length === 1 && isEmptyObject(body.custom)), {
    message:
      "the edit names no cell: custom is empty and no input, output, expectedOutput or metadata is given",
    path: ["custom"],
  })
  .meta({ minProperties: 1, ...NAMES_A_CELL });
export type UpdateRowBody = z.infer<typeof updateRowBodySchema>;

/** One edit of a batch: the row, its cells as in the row edit, and the row version it requires. */
export const rowEditSchema = newRowSchema
  .omit({ id: true, input: true })
  .extend({
    rowId: rowIdSchema,
    ifMatch: z
      .number({ error: "must be a non-negative integer" })
      .int("must be a non-negative integer")
      .min(0, "must be a non-negative integer")
      .optional()
      .describe("Apply this edit only if the row's current version equals this one"),
    input: cellSchema.optional(),
  })
  .refine(
    (edit) =>
      Object.keys(edit).some((key) => key !== "rowId" && key !== "ifMatch" && key !== "custom") ||
      (edit.custom !== undefined && !isEmptyObject(edit.custom)),
    "must change at least one cell: input, output, expectedOutput, metadata or custom",
  )
  .meta(NAMES_A_CELL);
export type RowEdit = z.infer<typeof rowEditSchema>;

export const MAX_BATCH_EDITS = 1000;
export const updateRowsBodySchema = z.strictObject({
  edits: z
    .array(rowEditSchema)
    .min(1, "must hold at least one edit")
    .max(MAX_BATCH_EDITS, `must hold at most ${MAX_BATCH_EDITS} edits`),
});
export const updateRowsResultSchema = z.object({
  versionId: z
    .string()
    .nullable()
    .describe("The new version; null when no cell changed and no version was made"),
  version: z.number().int(),
  rowsUpdated: z.number().int().describe("Rows with at least one cell changed"),
});
export type UpdateRowsResult = z.infer<typeof updateRowsResultSchema>;

export const ifMatchSchema = z.object({
  ifMatch: versionNumberSchema.optional(),
});

export const rowSelectionSchema = z.discriminatedUnion("mode", [
  z.strictObject({ mode: z.literal("selected"), rowIds: z.array(rowIdSchema).min(1).max(10000) }),
  z.strictObject({ mode: z.literal("allExcept"), rowIds: z.array(rowIdSchema).max(10000) }),
  z.strictObject({ mode: z.literal("all") }),
]);
export const deleteRowsBodySchema = z.strictObject({ selection: rowSelectionSchema });
export type RowSelection = z.infer<typeof rowSelectionSchema>;

/** The rows a list filter selects, as `GET …/rows` takes them: search, missing and present cells. */
const filterSelectionSchema = z
  .strictObject({
    mode: z.literal("filter"),
    search: z.string().min(1, "must not be empty").max(500, "must be at most 500 characters").optional(),
    missing: z
      .array(z.string().regex(/^[A-Za-z0-9_]{1,64}$/, "must be a column identifier"))
      .max(20)
      .optional(),
    present: z
      .array(z.string().regex(/^[A-Za-z0-9_]{1,64}$/, "must be a column identifier"))
      .max(20)
      .optional(),
    where: whereListSchema
      .optional()
      .describe('Value filters as GET …/rows takes them, such as ["metadata.source=\\"prod\\""]'),
  })
  .describe("Every row the list filters select, as GET …/rows takes them; no filter selects every row");
export const copySelectionSchema = z.discriminatedUnion("mode", [
  ...rowSelectionSchema.options,
  filterSelectionSchema,
]);
export type CopySelection = z.infer<typeof copySelectionSchema>;

/** A custom column of the target: its identifier, `new:<name>` to create it, or null to leave the cells out. */
const copyTargetColumnSchema = z
  .string()
  .regex(/^(new:.+|[A-Za-z0-9_]{1,64})$/, 'must be a column identifier or "new:<display name>"')
  .max(140)
  .nullable();
export const copyRowsBodySchema = z.strictObject({
  to: z.strictObject({
    projectSlug: slugSchema.optional().describe("The target's project; default: the source's"),
    datasetSlug: slugSchema,
  }),
  selection: copySelectionSchema,
  columnMap: recordOf(
    z.string().regex(/^[A-Za-z0-9_]{1,64}$/, "must be a column identifier"),
    copyTargetColumnSchema,
  )
    .optional()
    .describe(
      "From a source custom column's identifier to the target's: an identifier, \"new:<display name>\" to create one, or null to leave its cells out. A custom column not named here goes to the target's active custom column of the same name (case-insensitive), created if there is none",
    ),
});
export const MAX_COPY_ROW_IDS = 10000;
export const copyRowsResultSchema = z.object({
  versionId: z.string().nullable().describe("The target's new version; null when nothing was selected"),
  version: z.number().int().describe("The target's version"),
  rowsCopied: z.number().int(),
  rowIds: z
    .array(z.string())
    .describe(
      `The copies' ids in the target, in the source's order; the first ${MAX_COPY_ROW_IDS} of a larger copy`,
    ),
});
export type CopyRowsResult = z.infer<typeof copyRowsResultSchema>;

export const versionResultSchema = z.object({ versionId: z.string(), version: z.number().int() });
export type VersionResult = z.infer<typeof versionResultSchema>;
export const insertRowsResultSchema = versionResultSchema.extend({ rowIds: z.array(z.string()) });
export const deleteRowsResultSchema = z.object({
  versionId: z.string().nullable(),
  version: z.number().int(),
  deletedCount: z.number().int(),
});

export const listColumnsQuerySchema = z.strictObject({
  includeRemoved: queryBooleanSchema.default(false),
});
export const columnListSchema = z.object({ columns: z.array(datasetColumnSchema) });
export const createColumnBodySchema = z.strictObject({ name: nameSchema });
export const renameColumnBodySchema = createColumnBodySchema;
export const reorderColumnsBodySchema = z.strictObject({
  // The writer refuses a repeated identifier (naming each); the document says so with uniqueItems.
  order: z.array(z.string().min(1)).min(1, "must list the columns").meta({ uniqueItems: true }),
});

export const versionOperations = ["insert", "update", "delete", "import", "restore"] as const;
export const versionOperationSchema = z.enum(versionOperations);
export type VersionOperation = z.infer<typeof versionOperationSchema>;

export const datasetVersionSchema = z.object({
  versionId: z.string(),
  version: z.number().int(),
  createdAt: timestampSchema,
  operation: versionOperationSchema,
  rowsInserted: z.number().int(),
  rowsUpdated: z.number().int(),
  rowsDeleted: z.number().int(),
  actor: actorSchema,
});
export type DatasetVersion = z.infer<typeof datasetVersionSchema>;

export const rowCellsSchema = datasetRowSchema.pick({
  input: true,
  output: true,
  expectedOutput: true,
  metadata: true,
  custom: true,
});
export const rowHistoryEntrySchema = z.object({
  version: z.number().int(),
  versionId: z.string(),
  createdAt: timestampSchema,
  operation: versionOperationSchema,
  actor: actorSchema.describe("Who made this version of the row"),
  cells: rowCellsSchema.nullable().describe("The row's cells after this version; null when it was deleted"),
});

export const datasetPageSchema = page(datasetSchema);
export const rowPageSchema = page(datasetRowSchema);
export const versionPageSchema = page(datasetVersionSchema);
export const rowHistoryPageSchema = page(rowHistoryEntrySchema);

export const datasetIdSchema = cuidSchema;

export const diffChangeSchema = z.enum(["added", "removed", "modified"]);
export const diffEntrySchema = z.object({
  rowId: z.string(),
  change: diffChangeSchema,
  before: rowCellsSchema.nullable().describe("The row's cells at `from`; null when it did not exist then"),
  after: rowCellsSchema.nullable().describe("The row's cells at `to`; null when it did not exist then"),
});
export type DiffEntry = z.infer<typeof diffEntrySchema>;
export const diffPageSchema = page(diffEntrySchema);
export const diffQuerySchema = paginationQuerySchema
  .extend({
    from: versionNumberSchema.describe("The earlier version"),
    to: versionNumberSchema.describe("The later version"),
  })
  .refine((query) => query.from <= query.to, { message: "from must not be greater than to", path: ["from"] });
