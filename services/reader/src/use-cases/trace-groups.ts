import {
  isoToUnixNanos,
  type ListTraceGroupsQuery,
  listCursors,
  type Page,
  sortDirectionSchema,
  traceGroupSortFields,
  unixNanosToIso,
} from "@svc/contracts";
import { type Database, findProjectId } from "@svc/db";
import type { Kysely } from "kysely";
import { z } from "zod";
import { listTraceGroups, type TraceGroupRecord } from "../repositories/trace-groups";

/**
 * A cursor continues one list: the same project, grouping, sort and range. It points after the last
 * group shown, by its exact sort value and id.
 */
const groupCursors = listCursors(
  z.strictObject({
    kind: z.enum(["sessions", "users"]),
    projectId: z.string(),
    sortBy: z.enum(traceGroupSortFields),
    sortDirection: sortDirectionSchema,
    range: z.string(),
    value: z.string().regex(/^-?\d{1,20}$/),
    key: z.string(),
  }),
);

export type Kind = "sessions" | "users";

/** One page of the project's sessions or users, with the totals of each (as records). */
export async function listTraceGroupPage(
  db: Kysely<Database>,
  organizationId: string,
  kind: Kind,
  projectSlug: string,
  query: ListTraceGroupsQuery,
): Promise<Page<TraceGroupRecord>> {
  const projectId = await findProjectId(db, organizationId, projectSlug);
  const { sortBy, sortDirection } = query;
  const range = `${query.from ?? ""}/${query.to ?? ""}`;
  const after = groupCursors.read(query.cursor, (cursor) => {
    if (cursor.kind !== kind || cursor.projectId !== projectId) {
      return "was issued for another list; start again without a cursor";
    }
    if (cursor.sortBy !== sortBy || cursor.sortDirection !== sortDirection) {
      return `was issued for sortBy=${cursor.sortBy} and sortDirection=${cursor.sortDirection}; send those with the cursor, or start again without one`;
    }
    if (cursor.range !== range) return "was issued for another from and to; send the same, or start again";
    return undefined;
  });
  const records = await listTraceGroups(db, {
    projectId,
    by: kind === "sessions" ? "session_id" : "user_id",
    fromNs: query.from === undefined ? undefined : isoToUnixNanos(query.from),
    toNs: query.to === undefined ? undefined : isoToUnixNanos(query.to),
    sortBy,
    sortDirection,
    after,
    limit: query.limit + 1,
  });
  return groupCursors.page(
    records,
    query.limit,
    (record) => record,
    (record) => ({ kind, projectId, sortBy, sortDirection, range, value: record.sortValue, key: record.key }),
  );
}

export const totalsOf = ({ key: _, sortValue: __, firstNs, lastNs, ...totals }: TraceGroupRecord) => ({
  ...totals,
  firstTime: unixNanosToIso(firstNs),
  lastTime: unixNanosToIso(lastNs),
});
