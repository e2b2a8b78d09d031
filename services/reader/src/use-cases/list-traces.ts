import {
  cursorFingerprint,
  decodeCursor,
  encodeCursor,
  invalidCursor,
  type OperationInput,
  type operations,
  type Page,
  sortDirectionSchema,
  type Trace,
  traceSortFields,
} from "@svc/contracts";
import { type Database, findProjectId, listTraceRecords } from "@svc/db";
import type { Kysely } from "kysely";
import { z } from "zod";
import { toPage } from "../pagination";

type ListTracesBody = OperationInput<typeof operations.listTraces>["body"];

/**
 * A cursor continues one list: the same project, sort and filters (a fingerprint of them, to stay
 * short). It points after the last trace shown, by its exact sort value and trace id.
 */
const traceCursorSchema = z.strictObject({
  kind: z.literal("traces"),
  projectId: z.string(),
  sortBy: z.enum(traceSortFields),
  sortDirection: sortDirectionSchema,
  filters: z.string().nullable(),
  value: z.string().regex(/^-?\d{1,20}$/),
  traceId: z.string().regex(/^[0-9a-f]{32}$/),
});
type TraceCursor = z.infer<typeof traceCursorSchema>;

export async function listTraces(
  db: Kysely<Database>,
  organizationId: string,
  { params, body }: OperationInput<typeof operations.listTraces>,
): Promise<Page<Trace>> {
  const projectId = await findProjectId(db, organizationId, params.projectSlug);
  const filters = filtersFingerprint(body);
  const after = body.cursor === undefined ? undefined : readCursor(body.cursor, projectId, body, filters);
  const records = await listTraceRecords(db, {
    projectId,
    filters: body.filters,
    sortBy: body.sortBy,
    sortDirection: body.sortDirection,
    after,
    limit: body.limit + 1,
  });
  return toPage(
    records,
    body.limit,
    ({ sortValue: _, ...trace }) => trace,
    (record) =>
      encodeCursor({
        kind: "traces",
        projectId,
        sortBy: body.sortBy,
        sortDirection: body.sortDirection,
        filters,
        value: record.sortValue,
        traceId: record.traceId,
      } satisfies TraceCursor),
  );
}

const filtersFingerprint = (body: ListTracesBody): string | null =>
  body.filters.length === 0 ? null : cursorFingerprint(JSON.stringify(body.filters));

function readCursor(
  raw: string,
  projectId: string,
  body: ListTracesBody,
  filters: string | null,
): { value: string; traceId: string } {
  const cursor = decodeCursor(traceCursorSchema, raw);
  if (cursor.projectId !== projectId) {
    throw invalidCursor("was issued for another project's list; start again without a cursor");
  }
  if (cursor.sortBy !== body.sortBy || cursor.sortDirection !== body.sortDirection) {
    throw invalidCursor(
      `was issued for sortBy=${cursor.sortBy} and sortDirection=${cursor.sortDirection}; send those with the cursor, or start again without one`,
    );
  }
  if (cursor.filters !== filters) {
    throw invalidCursor(
      "was issued for other filters; send the same filters with the cursor, or start again",
    );
  }
  return { value: cursor.value, traceId: cursor.traceId };
}
