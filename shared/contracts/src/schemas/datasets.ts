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
  rows: z.number().int().describe("Rows the dataset has at its current version (exact)"),
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

export const listColumnsQuerySchema = z.strictObject({
  includeRemoved: queryBooleanSchema.default(false),
});
export const columnListSchema = z.object({ columns: z.array(datasetColumnSchema) });
/**
 * The most custom columns a dataset may have active. Every row's cells, an export's header and an
 * import's mapping grow with them; the limit keeps one dataset from making the work of one request
 * (and of every request beside it, in the embedded platform's one process) unbounded.
 */
export const MAX_CUSTOM_COLUMNS = 1000;

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
  rows: z.number().int().describe("Rows the dataset has at this version (exact)"),
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
