import {
  type Caller,
  type Cell,
  DomainError,
  type OperationInput,
  operations,
  type RowEdit,
  type UpdateRowsResult,
} from "@svc/contracts";
import { type Database, idempotencyOf } from "@svc/db";
import type { Kysely } from "kysely";
import { listColumns } from "../repositories/columns";
import { applyRowChanges, findRowVersions, type RowChange } from "../repositories/row-changes";
import { assertCellsAccepted, presentBuiltins } from "./column-check";
import { atEdit, rowNotFound, rowVersionMismatch } from "./row-edit-errors";
import { versionTransaction, writeVersion } from "./versioning";

/**
 * Applies a batch of row edits as one dataset version, all or nothing: every edit is judged first
 * (its cells against the active columns, its row, its If-Match), and the first that fails fails the
 * batch with an error naming its index and row. Only rows whose cells change are written; a batch
 * that changes nothing makes no version.
 */
export async function updateDatasetRows(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.updateDatasetRows>,
): Promise<UpdateRowsResult> {
  const { params, body } = input;
  assertEachRowOnce(body.edits);
  return versionTransaction(db, idempotencyOf(caller, operations.updateDatasetRows, input), (trx) =>
    writeVersion(
      trx,
      caller,
      params,
      async (target) => {
        const columns = await listColumns(trx, target.datasetId);
        body.edits.forEach((edit, index) => {
          atEdit({ index, rowId: edit.rowId }, () =>
            assertCellsAccepted(columns, presentBuiltins(edit), Object.keys(edit.custom ?? {})),
          );
        });
        const versions = await findRowVersions(
          trx,
          target.datasetId,
          body.edits.map((edit) => edit.rowId),
        );
        body.edits.forEach((edit, index) => {
          assertRowMatches(index, edit, versions.get(edit.rowId));
        });
        const changed = await applyRowChanges(
          trx,
          target.datasetId,
          target.version,
          body.edits.map(changeOf),
        );
        return { operation: "update" as const, rowsUpdated: changed };
      },
      ({ versionId, version, work }) => ({ versionId, version, rowsUpdated: work.rowsUpdated }),
    ),
  );
}

function changeOf(edit: RowEdit): RowChange {
  const builtins: RowChange["builtins"] = {};
  // Present in a parsed JSON body, a cell is a JSON value (null included), never undefined.
  for (const field of presentBuiltins(edit)) builtins[field] = edit[field] as Cell;
  return { rowId: edit.rowId, builtins, custom: edit.custom ?? {} };
}

function assertEachRowOnce(edits: readonly RowEdit[]): void {
  const first = new Map<string, number>();
  edits.forEach((edit, index) => {
    const earlier = first.get(edit.rowId);
    if (earlier === undefined) {
      first.set(edit.rowId, index);
      return;
    }
    throw new DomainError(
      "validation_failed",
      `Edit ${index} names row "${edit.rowId}" again (edit ${earlier} edits it already); put each row's cells in one edit`,
      {
        index,
        rowId: edit.rowId,
        issues: [
          { path: `body.edits.${index}.rowId`, message: `row "${edit.rowId}" repeats`, code: "custom" },
        ],
      },
    );
  });
}

function assertRowMatches(index: number, edit: RowEdit, current: number | undefined): void {
  const at = { index, rowId: edit.rowId };
  if (current === undefined) throw rowNotFound(at);
  if (edit.ifMatch !== undefined && edit.ifMatch !== current) {
    throw rowVersionMismatch(at, current, edit.ifMatch);
  }
}
