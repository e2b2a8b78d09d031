import { type Caller, DomainError, type Operation } from "@svc/contracts";
import { type Database, findDatasetForUpdate, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely, Transaction } from "kysely";
import { type ColumnRecord, listColumns } from "../repositories/columns";
import { touchDataset } from "../repositories/datasets";
import { refOf } from "./versioning";

type ColumnRequest = { params: { projectSlug: string; datasetSlug: string } };

/** Runs a column change with the dataset locked, so it serialises with row edits; no new version. */
export async function withColumns<T>(
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

export function findColumn(
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

export function assertNameFree(columns: readonly ColumnRecord[], name: string, except?: string): void {
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
