import type { OperationInput, operations, Page, TraceUser } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { listTraceGroupPage, totalsOf } from "./trace-groups";

/** The project's users: its traces grouped by user id. */
export async function listTraceUsers(
  db: Kysely<Database>,
  organizationId: string,
  { params, query }: OperationInput<typeof operations.listTraceUsers>,
): Promise<Page<TraceUser>> {
  const page = await listTraceGroupPage(db, organizationId, "users", params.projectSlug, query);
  return { ...page, items: page.items.map((record) => ({ userId: record.key, ...totalsOf(record) })) };
}
