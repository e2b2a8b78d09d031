import {
  type BuiltinField,
  type Caller,
  type CopyRowsResult,
  DomainError,
  MAX_COPY_ROW_IDS,
  newId,
  type OperationInput,
  operations,
} from "@svc/contracts";
import { type CellPresence, type CellRef, type Database, findDataset, idempotencyOf } from "@svc/db";
import type { Kysely, Transaction } from "kysely";
import { type ColumnRecord, insertCustomColumn, listColumns } from "../repositories/columns";
import { refreshStatistics } from "../repositories/datasets";
import { copyRows, listMissingRowIds } from "../repositories/row-copies";
import { unknownColumn } from "./column-check";
import { refOf, versionTransaction, writeVersion } from "./versioning";

type CopyInput = OperationInput<typeof operations.copyDatasetRows>;

/** A copy of this many rows or more refreshes the planner's statistics before it answers. */
const ANALYZE_AFTER_ROWS = 10_000;

/**
 * Copies rows of a dataset, as they are at its current version, into another dataset (or the same
 * one) as one new version of the target, all or nothing. Custom cells follow `columnMap`, else the
 * target's column of the same name, created when the target has none; each copy records where it
 * came from in its metadata.
 */
export async function copyDatasetRows(
  db: Kysely<Database>,
  caller: Caller,
  input: CopyInput,
): Promise<CopyRowsResult & { created: boolean }> {
  const { params, body } = input;
  const sourceRef = refOf(caller, params);
  const targetRef = refOf(caller, {
    projectSlug: body.to.projectSlug ?? params.projectSlug,
    datasetSlug: body.to.datasetSlug,
  });
  const { analyze, ...copied } = await versionTransaction(
    db,
    idempotencyOf(caller, operations.copyDatasetRows, input),
    async (trx) => {
      const source = await findDataset(trx, sourceRef);
      const sourceColumns = (await listColumns(trx, source.id)).filter((column) => !column.removed);
      const { selection } = body;
      return writeVersion(
        trx,
        caller,
        targetRef,
        async (target) => {
          const targetColumns = await listColumns(trx, target.datasetId);
          const customMap = await mapColumns(
            trx,
            target.datasetId,
            sourceColumns,
            targetColumns,
            body.columnMap,
          );
          const from = {
            datasetId: source.id,
            version: source.version,
            provenance: {
              projectSlug: sourceRef.projectSlug,
              datasetSlug: sourceRef.datasetSlug,
              datasetId: source.id,
              version: source.version,
            },
          };
          if (selection.mode === "selected") {
            const missing = await listMissingRowIds(trx, from, selection.rowIds);
            if (missing.length > 0) {
              throw new DomainError(
                "not_found",
                `No rows with these ids in the source dataset: ${missing.slice(0, 10).join(", ")}`,
                { rowIds: missing },
              );
            }
          }
          const filter = selection.mode === "filter" ? selection : undefined;
          const copied = await copyRows(trx, {
            source: from,
            selection: selection.mode === "filter" ? { mode: "all" } : selection,
            search:
              filter?.search === undefined
                ? undefined
                : { text: filter.search, ...searchedCells(sourceColumns) },
            presence: filter && presenceOf(filter, sourceColumns),
            fields: sourceColumns.flatMap((column) =>
              column.kind === "builtin" ? [column.field as BuiltinField] : [],
            ),
            customMap,
            target,
            idLimit: MAX_COPY_ROW_IDS,
          });
          return { operation: "insert" as const, rowsInserted: copied.count, rowIds: copied.rowIds };
        },
        ({ versionId, version, work }) => ({
          versionId,
          version,
          rowsCopied: work.rowsInserted,
          analyze: work.rowsInserted >= ANALYZE_AFTER_ROWS,
          rowIds: work.rowIds,
          created: versionId !== null,
        }),
      );
    },
  );
  // As after a large import: the planner must know the copies are there (see import-file.ts).
  if (analyze) await refreshStatistics(db);
  return copied;
}

/**
 * Where each active custom column of the source goes in the target: the map's choice, else the
 * target's active custom column of the same name, else a new column of that name. Columns created
 * here are part of the copy's transaction: a copy that fails leaves none behind.
 */
async function mapColumns(
  trx: Transaction<Database>,
  targetId: string,
  sourceColumns: readonly ColumnRecord[],
  targetColumns: ColumnRecord[],
  columnMap: Record<string, string | null> = {},
): Promise<Record<string, string>> {
  const sourceCustom = sourceColumns.filter((column) => column.kind === "custom");
  for (const identifier of Object.keys(columnMap)) {
    if (!sourceCustom.some((column) => column.identifier === identifier)) {
      throw new DomainError(
        "unknown_column",
        `columnMap names "${identifier}", which is not an active custom column of the source dataset`,
        { column: identifier },
      );
    }
  }
  const activeTarget = () => targetColumns.filter((column) => !column.removed && column.kind === "custom");
  const create = async (name: string) => {
    const clash = targetColumns.find((c) => !c.removed && c.name.toLowerCase() === name.toLowerCase());
    if (clash) {
      if (clash.kind === "custom") return clash.identifier;
      throw new DomainError(
        "conflict",
        `The target has a built-in column named "${name}"; map this column to another in columnMap`,
        { name },
      );
    }
    const identifier = newId();
    await insertCustomColumn(trx, { datasetId: targetId, identifier, name });
    targetColumns.push({ identifier, name, kind: "custom", field: null, position: 0, removed: false });
    return identifier;
  };
  const map: Record<string, string> = {};
  for (const column of sourceCustom) {
    const chosen = columnMap[column.identifier];
    if (chosen === null) continue;
    if (chosen === undefined) {
      const same = activeTarget().find((c) => c.name.toLowerCase() === column.name.toLowerCase());
      map[column.identifier] = same?.identifier ?? (await create(column.name));
    } else if (chosen.startsWith("new:")) {
      map[column.identifier] = await create(chosen.slice("new:".length));
    } else if (activeTarget().some((c) => c.identifier === chosen)) {
      map[column.identifier] = chosen;
    } else {
      throw new DomainError(
        "unknown_column",
        `columnMap sends "${column.identifier}" to "${chosen}", which is not an active custom column of the target dataset`,
        { column: chosen },
      );
    }
  }
  return map;
}

function searchedCells(columns: readonly ColumnRecord[]) {
  return {
    fields: columns.flatMap((column) => (column.kind === "builtin" ? [column.field as BuiltinField] : [])),
    customIdentifiers: columns.filter((column) => column.kind === "custom").map((c) => c.identifier),
  };
}

function presenceOf(
  filter: {
    missing?: string[] | undefined;
    present?: string[] | undefined;
    where?: { column: string; path: (string | number)[]; value: unknown }[] | undefined;
  },
  columns: readonly ColumnRecord[],
): CellPresence | undefined {
  if (filter.missing === undefined && filter.present === undefined && filter.where === undefined)
    return undefined;
  const refOf = (identifier: string): CellRef => {
    const column = columns.find((c) => c.identifier === identifier);
    if (!column) throw unknownColumn(identifier);
    return column.kind === "builtin"
      ? { kind: "builtin", field: column.field as BuiltinField }
      : { kind: "custom", identifier };
  };
  return {
    missing: (filter.missing ?? []).map(refOf),
    present: (filter.present ?? []).map(refOf),
    equal: (filter.where ?? []).map(({ column, path, value }) => ({ cell: refOf(column), path, value })),
  };
}
