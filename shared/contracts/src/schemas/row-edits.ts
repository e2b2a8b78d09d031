import { z } from "zod";
import { rowIdSchema, slugSchema } from "../ids";
import { versionNumberSchema, versionSchema } from "./common";
import { cellSchema } from "./datasets";
import { recordOf } from "./proto-keys";
import { whereListSchema } from "./row-queries";

/* Writes to a dataset's rows: new rows, edits, selections of rows to delete or copy, and what they answer. */

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
    ifMatch: versionSchema
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
