import {
  cursorFingerprint,
  listCursors,
  type OperationInput,
  type operations,
  sortDirectionSchema,
  type TracePage,
  traceSortFields,
} from "@svc/contracts";
import { countTraceRecords, type Database, findProjectId, listTraceRecords, type TraceRecord } from "@svc/db";
import type { Kysely } from "kysely";
import { z } from "zod";
import { inSnapshot } from "../repositories/db";

type ListTracesBody = OperationInput<typeof operations.listTraces>["body"];

/**
 * A cursor continues one list: the same project, sort and filters (a fingerprint of them, to stay
 * short). It points after the last trace shown, by its exact sort value and trace id.
 */
const traceCursors = listCursors(
  z.strictObject({
    kind: z.literal("traces"),
    projectId: z.string(),
    sortBy: z.enum(traceSortFields),
    sortDirection: sortDirectionSchema,
    filters: z.string().nullable(),
    value: z.string().regex(/^-?\d{1,20}$/),
    traceId: z.string().regex(/^[0-9a-f]{32}$/),
  }),
);

export async function listTraces(
  db: Kysely<Database>,
  organizationId: string,
  { params, body }: OperationInput<typeof operations.listTraces>,
): Promise<TracePage> {
  const projectId = await findProjectId(db, organizationId, params.projectSlug);
  const { sortBy, sortDirection } = body;
  const filters = filtersFingerprint(body);
  const after = traceCursors.read(body.cursor, (cursor) => {
    if (cursor.projectId !== projectId) {
      return "was issued for another project's list; start again without a cursor";
    }
    if (cursor.sortBy !== sortBy || cursor.sortDirection !== sortDirection) {
      return `was issued for sortBy=${cursor.sortBy} and sortDirection=${cursor.sortDirection}; send those with the cursor, or start again without one`;
    }
    if (cursor.filters !== filters) {
      return "was issued for other filters; send the same filters with the cursor, or start again";
    }
    return undefined;
  });
  return inSnapshot(db, async (trx) => {
    const records = await listTraceRecords(trx, {
      projectId,
      filters: body.filters,
      sortBy,
      sortDirection,
      after,
      limit: body.limit + 1,
    });
    const total = await countTraceRecords(trx, { projectId, filters: body.filters });
    return { ...page(records), total };
  });

  function page(records: TraceRecord[]) {
    return traceCursors.page(
      records,
      body.limit,
      ({ sortValue: _, ...trace }) => trace,
      (record) => ({
        kind: "traces",
        projectId,
        sortBy,
        sortDirection,
        filters,
        value: record.sortValue,
        traceId: record.traceId,
      }),
    );
  }
}

const filtersFingerprint = (body: ListTracesBody): string | null =>
  body.filters.length === 0 ? null : cursorFingerprint(JSON.stringify(body.filters));
