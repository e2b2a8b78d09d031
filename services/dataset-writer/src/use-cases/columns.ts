import {
  type Caller,
  type DatasetColumn,
  DomainError,
  newId,
  type Operation,
  type OperationInput,
  operations,
} from "@svc/contracts";
import { type Database, findDatasetForUpdate, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely, Transaction } from "kysely";
import {
  type ColumnRecord,
  insertCustomColumn,
  listColumns,
  toContractColumn,
  updateColumn,
} from "../repositories/columns";
import { touchDataset } from "../repositories/datasets";
import { refOf } from "./versioning";

type ColumnRequest = { params: { projectSlug: string; datasetSlug: string } };

/** Runs a column change with the dataset locked, so it serialises with row edits; no new version. */
async function withColumns<T>(
  db: Kysely<Database>,
  caller: Caller,
  op: Operation,
  input: ColumnRequest,
  change: (trx: Transaction<Database>, datasetId: string, columns: ColumnRecord[]) => Promise<T>,
): Promise<T> {
  return runIdempotent(db, idempotencyOf(caller, op, input), async (trx) => {
    const dataset = await findDatasetForUpdate(trx, refOf(caller, input.params));
    const result = await change(trx, dataset.id, await listColumns(trx, dataset.id));
    await touchDataset(trx, dataset.id);
    return result;
  });
}

function findColumn(
  columns: readonly ColumnRecord[],
  identifier: string,
  state: "active" | "removed" | "any",
) {
  const column = columns.find((c) => c.identifier === identifier);
  const matches = column && (state === "any" || (state === "removed") === column.removed);
  if (!column || !matches) {
    const what = state === "removed" ? "Removed column" : "Column";
    throw new DomainError(
      "not_found",
      `${what} "${identifier}" not found; list the dataset's columns (includeRemoved=true shows removed ones)`,
    );
  }
  return column;
}

function assertNameFree(columns: readonly ColumnRecord[], name: string, except?: string): void {
  const clash = columns.find(
    (c) => !c.removed && c.identifier !== except && c.name.toLowerCase() === name.toLowerCase(),
  );
  if (clash) {
    throw new DomainError(
      "conflict",
      `A column named "${name}" already exists (identifier "${clash.identifier}")`,
      {
        identifier: clash.identifier,
      },
    );
  }
}

export function createColumn(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.createDatasetColumn>,
): Promise<DatasetColumn> {
  const { body } = input;
  return withColumns(db, caller, operations.createDatasetColumn, input, async (trx, datasetId, columns) => {
    assertNameFree(columns, body.name);
    const identifier = newId();
    await insertCustomColumn(trx, { datasetId, identifier, name: body.name });
    return { identifier, name: body.name, source: { kind: "custom" } };
  });
}

export function renameColumn(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.updateDatasetColumn>,
): Promise<DatasetColumn> {
  const { params, body } = input;
  return withColumns(db, caller, operations.updateDatasetColumn, input, async (trx, datasetId, columns) => {
    const column = findColumn(columns, params.identifier, "active");
    assertNameFree(columns, body.name, column.identifier);
    await updateColumn(trx, datasetId, column.identifier, { name: body.name });
    return toContractColumn({ ...column, name: body.name });
  });
}

export async function removeColumn(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.deleteDatasetColumn>,
): Promise<null> {
  return withColumns(db, caller, operations.deleteDatasetColumn, input, async (trx, datasetId, columns) => {
    const column = findColumn(columns, input.params.identifier, "active");
    await updateColumn(trx, datasetId, column.identifier, { removed: true });
    return null;
  });
}

export function restoreColumn(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.restoreDatasetColumn>,
): Promise<DatasetColumn> {
  return withColumns(db, caller, operations.restoreDatasetColumn, input, async (trx, datasetId, columns) => {
    const column = findColumn(columns, input.params.identifier, "any");
    if (!column.removed) return toContractColumn(column);
    assertNameFree(columns, column.name, column.identifier);
    await updateColumn(trx, datasetId, column.identifier, { removed: false });
    return toContractColumn({ ...column, removed: false });
  });
}

export function reorderColumns(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.reorderDatasetColumns>,
): Promise<{ columns: DatasetColumn[] }> {
  const { body } = input;
  return withColumns(db, caller, operations.reorderDatasetColumns, input, async (trx, datasetId, columns) => {
    const active = columns.filter((c) => !c.removed);
    assertPermutation(
      body.order,
      active.map((c) => c.identifier),
    );
    const removed = columns.filter((c) => c.removed);
    const ordered = [...body.order.map((id) => findColumn(active, id, "active")), ...removed];
    for (const [position, column] of ordered.entries()) {
      if (column.position !== position) await updateColumn(trx, datasetId, column.identifier, { position });
    }
    return { columns: ordered.filter((c) => !c.removed).map(toContractColumn) };
  });
}

function assertPermutation(order: readonly string[], active: readonly string[]): void {
  const seen = new Set<string>();
  const duplicates = order.filter((id) => seen.has(id) || !seen.add(id));
  const unknown = order.filter((id) => !active.includes(id));
  const missing = active.filter((id) => !order.includes(id));
  if (duplicates.length + unknown.length + missing.length === 0) return;
  const problems = [
    missing.length ? `missing ${missing.map((id) => `"${id}"`).join(", ")}` : "",
    unknown.length ? `unknown or removed ${unknown.map((id) => `"${id}"`).join(", ")}` : "",
    duplicates.length ? `listed twice ${duplicates.map((id) => `"${id}"`).join(", ")}` : "",
  ].filter(Boolean);
  throw new DomainError(
    "validation_failed",
    `order must list every active column identifier exactly once: ${problems.join("; ")}`,
    {
      issues: [{ path: "body.order", message: problems.join("; "), code: "custom" }],
      missing,
      unknown,
      duplicates,
    },
  );
}
