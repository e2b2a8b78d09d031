import type { OperationInput, operations, Page, TraceSession } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { listTraceGroupPage, totalsOf } from "./trace-groups";

/** The project's sessions: its traces grouped by session id. */
export async function listTraceSessions(
  db: Kysely<Database>,
  organizationId: string,
  { params, query }: OperationInput<typeof operations.listTraceSessions>,
): Promise<Page<TraceSession>> {
  const page = await listTraceGroupPage(db, organizationId, "sessions", params.projectSlug, query);
  return { ...page, items: page.items.map((record) => ({ sessionId: record.key, ...totalsOf(record) })) };
}
