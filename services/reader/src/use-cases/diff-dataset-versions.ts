import { isDeepStrictEqual } from "node:util";
import type { DiffEntry, OperationInput, operations, Page } from "@svc/contracts";
import { listCursors } from "@svc/contracts";
import { type Database, findDataset, type Visibility, visibilityOf, visibleCells } from "@svc/db";
import type { Kysely } from "kysely";
import { z } from "zod";
import { listColumns } from "../repositories/columns";
import { inSnapshot } from "../repositories/db";
import { listChangedRows, type RowDiffRecord } from "../repositories/diff";
import { versionNotFound } from "./errors";

const diffCursors = listCursors(
  z.strictObject({
    kind: z.literal("diff"),
    datasetId: z.string(),
    from: z.number().int(),
    to: z.number().int(),
    rowId: z.string(),
  }),
);

/** Every row that differs between two versions, cell by cell, by row id. */
export function diffDatasetVersions(
  db: Kysely<Database>,
  organizationId: string,
  { params, query }: OperationInput<typeof operations.diffDatasetVersions>,
): Promise<Page<DiffEntry>> {
  return inSnapshot(db, async (trx) => {
    const dataset = await findDataset(trx, { organizationId, ...params });
    for (const version of [query.from, query.to]) {
      if (version > dataset.version) throw versionNotFound(version, dataset.version);
    }
    const afterRowId = diffCursors.read(query.cursor, (cursor) =>
      cursor.datasetId === dataset.id && cursor.from === query.from && cursor.to === query.to
        ? undefined
        : "was issued for another diff; pass the same from and to, or start again without a cursor",
    )?.rowId;
    const visibility = visibilityOf(await listColumns(trx, dataset.id, { includeRemoved: false }));
    const changes = await collectChanges(
      (after, limit) =>
        listChangedRows(trx, {
          datasetId: dataset.id,
          from: query.from,
          to: query.to,
          afterRowId: after,
          limit,
        }),
      afterRowId,
      query.limit + 1,
      visibility,
    );
    return diffCursors.page(
      changes,
      query.limit,
      (change) => change,
      (change) => ({
        kind: "diff",
        datasetId: dataset.id,
        from: query.from,
        to: query.to,
        rowId: change.rowId,
      }),
    );
  });
}

/**
 * Reads changed rows in batches until `wanted` real differences are found or none are left: a row
 * changed and changed back within the range is no difference, and pages stay full without it.
 */
async function collectChanges(
  read: (afterRowId: string | undefined, limit: number) => Promise<RowDiffRecord[]>,
  afterRowId: string | undefined,
  wanted: number,
  visibility: Visibility,
): Promise<DiffEntry[]> {
  const found: DiffEntry[] = [];
  let after = afterRowId;
  for (;;) {
    const batch = await read(after, wanted);
    found.push(...batch.flatMap((record) => toEntry(record, visibility)));
    after = batch.at(-1)?.rowId;
    if (found.length >= wanted || batch.length < wanted) return found.slice(0, wanted);
  }
}

function toEntry(record: RowDiffRecord, visibility: Visibility): DiffEntry[] {
  const before = record.before && visibleCells(record.before, visibility);
  const after = record.after && visibleCells(record.after, visibility);
  if (before && after && isDeepStrictEqual(before, after)) return [];
  if (!before && !after) return [];
  const change = !before ? "added" : !after ? "removed" : "modified";
  return [{ rowId: record.rowId, change, before, after }];
}
