import {
  type Caller,
  DomainError,
  MAX_CUSTOM_COLUMNS,
  type Operation,
  type OperationInput,
  type OperationOutput,
} from "@svc/contracts";
import { type Database, findDatasetForUpdate, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely, Transaction } from "kysely";
import { type ColumnRecord, listColumns } from "../repositories/columns";
import { touchDataset } from "../repositories/datasets";
import { refOf } from "./versioning";

type ColumnInput<O extends Operation> = OperationInput<O> & {
  params: { projectSlug: string; datasetSlug: string };
};

/**
 * The use-case of column operation `op`: runs `change` with the dataset locked, so it serialises with
 * row edits, and its columns listed; idempotent under `op`; no new version. Naming `op` once ties the
 * input's type, the idempotency scope and the answer's type to the same operation.
 */
export function columnChange<O extends Operation>(
  op: O,
  change: NoInfer<
    (
      trx: Transaction<Database>,
      datasetId: string,
      columns: ColumnRecord[],
      input: ColumnInput<O>,
    ) => Promise<OperationOutput<O>>
  >,
): (db: Kysely<Database>, caller: Caller, input: ColumnInput<O>) => Promise<OperationOutput<O>> {
  return (db, caller, input) =>
    runIdempotent(db, idempotencyOf(caller, op, input), async (trx) => {
      const dataset = await findDatasetForUpdate(trx, refOf(caller, input.params));
      const result = await change(trx, dataset.id, await listColumns(trx, dataset.id), input);
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

/** Refuses one more active custom column where the dataset already has as many as it may. */
export function assertRoomForColumn(columns: readonly ColumnRecord[]): void {
  const count = columns.filter((c) => c.kind === "custom" && !c.removed).length;
  if (count >= MAX_CUSTOM_COLUMNS) {
    throw new DomainError(
      "too_many_columns",
      `The dataset has ${count} custom columns, and a dataset has at most ${MAX_CUSTOM_COLUMNS}; remove a column you no longer need first`,
      { limit: MAX_CUSTOM_COLUMNS, columns: count },
    );
  }
}
