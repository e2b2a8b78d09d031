import { DomainError, type OperationInput, type operations, type TraceWithSpans } from "@svc/contracts";
import { type Database, findProjectId, listTraceRecords } from "@svc/db";
import type { Kysely } from "kysely";
import { inSnapshot } from "../repositories/db";
import { listSpans } from "../repositories/spans";

/** One trace with every span, read as of one instant (a span arriving meanwhile is in both or neither). */
export async function getTrace(
  db: Kysely<Database>,
  organizationId: string,
  { params }: OperationInput<typeof operations.getTrace>,
): Promise<TraceWithSpans> {
  return inSnapshot(db, async (trx) => {
    const projectId = await findProjectId(trx, organizationId, params.projectSlug);
    const [record] = await listTraceRecords(trx, { projectId, traceIds: [params.traceId] });
    if (!record) {
      throw new DomainError(
        "not_found",
        `Trace "${params.traceId}" not found in project "${params.projectSlug}"`,
      );
    }
    const { sortValue: _, ...trace } = record;
    return { ...trace, spans: await listSpans(trx, projectId, params.traceId) };
  });
}
