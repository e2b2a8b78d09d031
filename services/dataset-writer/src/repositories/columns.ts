import { type BuiltinField, builtinFields, type DatasetColumn } from "@svc/contracts";
import type { Database } from "@svc/db";
import { type Kysely, sql } from "kysely";

export interface ColumnRecord {
  identifier: string;
  name: string;
  kind: "builtin" | "custom";
  field: string | null;
  position: number;
  removed: boolean;
}

const builtinNames: Record<BuiltinField, string> = {
  input: "Input",
  output: "Output",
  expectedOutput: "Expected output",
  metadata: "Metadata",
};

export async function insertBuiltinColumns(db: Kysely<Database>, datasetId: string): Promise<void> {
  await db
    .insertInto("dataset_columns")
    .values(
      builtinFields.map((field, position) => ({
        dataset_id: datasetId,
        identifier: field,
        name: builtinNames[field],
        kind: "builtin" as const,
        field,
        position,
      })),
    )
    .execute();
}

/** Every column of a dataset, removed ones included, in display order. */
export async function listColumns(db: Kysely<Database>, datasetId: string): Promise<ColumnRecord[]> {
  const rows = await db
    .selectFrom("dataset_columns")
    .select(["identifier", "name", "kind", "field", "position", "removed_at"])
    .where("dataset_id", "=", datasetId)
    .orderBy("position")
    .orderBy("identifier")
    .execute();
  return rows.map(({ removed_at, ...row }) => ({ ...row, removed: removed_at !== null }));
}

export async function insertCustomColumn(
  db: Kysely<Database>,
  values: { datasetId: string; identifier: string; name: string },
): Promise<void> {
  await db
    .insertInto("dataset_columns")
    .values({
      dataset_id: values.datasetId,
      identifier: values.identifier,
      name: values.name,
      kind: "custom",
      field: null,
      position: sql`(SELECT coalesce(max(position), -1) + 1 FROM dataset_columns WHERE dataset_id = ${values.datasetId})`,
    })
    .execute();
}

/**
 * Adds custom columns after the dataset's last one, in the order given, in one statement. The
 * dataset is locked by the caller, so the last position cannot move meanwhile.
 */
export async function insertCustomColumns(
  db: Kysely<Database>,
  datasetId: string,
  columns: readonly { identifier: string; name: string }[],
): Promise<void> {
  if (columns.length === 0) return;
  const { last } = await db
    .selectFrom("dataset_columns")
    .select(sql<number>`coalesce(max(position), -1)`.as("last"))
    .where("dataset_id", "=", datasetId)
    .executeTakeFirstOrThrow();
  await db
    .insertInto("dataset_columns")
    .values(
      columns.map((column, index) => ({
        dataset_id: datasetId,
        identifier: column.identifier,
        name: column.name,
        kind: "custom" as const,
        field: null,
        position: Number(last) + 1 + index,
      })),
    )
    .execute();
}

export async function updateColumn(
  db: Kysely<Database>,
  datasetId: string,
  identifier: string,
  changes: { name?: string; removed?: boolean; position?: number },
): Promise<void> {
  await db
    .updateTable("dataset_columns")
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.removed !== undefined ? { removed_at: changes.removed ? sql`now()` : null } : {}),
      ...(changes.position !== undefined ? { position: changes.position } : {}),
    })
    .where("dataset_id", "=", datasetId)
    .where("identifier", "=", identifier)
    .execute();
}

export function toContractColumn(column: ColumnRecord): DatasetColumn {
  const source =
    column.kind === "builtin"
      ? { kind: "builtin" as const, field: column.field as BuiltinField }
      : { kind: "custom" as const };
  return {
    identifier: column.identifier,
    name: column.name,
    source,
    ...(column.removed ? { removed: true } : {}),
  };
}
