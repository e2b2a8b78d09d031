import type { OperationInput, OperationOutput, operations } from "@svc/contracts";
import { listCursors } from "@svc/contracts";
import { type Database, findDataset, visibilityOf, visibleCells } from "@svc/db";
import type { Kysely } from "kysely";
import { z } from "zod";
import { listColumns } from "../repositories/columns";
import { listRowRevisions } from "../repositories/rows";
import { rowNotFound } from "./errors";

const historyCursors = listCursors(
  z.strictObject({
    kind: z.literal("history"),
    datasetId: z.string(),
    rowId: z.string(),
    version: z.number().int().min(0),
  }),
);

/** Every version of one row, newest first; a deletion shows as an entry whose cells are null. */
export async function getDatasetRowHistory(
  db: Kysely<Database>,
  organizationId: string,
  { params, query }: OperationInput<typeof operations.getDatasetRowHistory>,
): Promise<OperationOutput<typeof operations.getDatasetRowHistory>> {
  const dataset = await findDataset(db, { organizationId, ...params });
  const before = historyCursors.read(query.cursor, (cursor) =>
    cursor.datasetId === dataset.id && cursor.rowId === params.rowId
      ? undefined
      : "was issued for another row's history; start again without a cursor",
  )?.version;
  const revisions = await listRowRevisions(db, {
    datasetId: dataset.id,
    rowId: params.rowId,
    before,
    limit: query.limit + 1,
  });
  if (revisions.length === 0 && before === undefined) throw rowNotFound(params.rowId, params.datasetSlug);
  const visibility = visibilityOf(await listColumns(db, dataset.id, { includeRemoved: false }));
  return historyCursors.page(
    revisions,
    query.limit,
    (revision) => ({
      version: revision.version,
      versionId: revision.versionId,
      createdAt: revision.createdAt.toISOString(),
      operation: revision.operation,
      actor: revision.actor,
      cells: revision.cells === null ? null : visibleCells(revision.cells, visibility),
    }),
    (revision) => ({
      kind: "history",
      datasetId: dataset.id,
      rowId: params.rowId,
      version: revision.version,
    }),
  );
}
