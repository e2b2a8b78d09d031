import { type Bus, callOperation } from "@svc/bus";
import { operations, type RequestContext, type Role } from "@svc/contracts";
import type { Database } from "@svc/db";
import { type BackendName, type ProjectFixture, type ServedBackend, serveOnBackend } from "@svc/testing";
import type { Kysely } from "kysely";
import { registerTraceIngest } from "./service";

export { failure, makeProject, type ProjectFixture } from "@svc/testing";

/** A backend with trace-ingest serving on it, and a bus of its own to call it from, as the gateway would. */
export interface IngestHarness extends ServedBackend {
  caller: Bus;
  db: Kysely<Database>;
}

export async function startIngest(name: BackendName): Promise<IngestHarness> {
  const served = await serveOnBackend(name, registerTraceIngest);
  return { ...served, caller: await served.backend.connectBus(), db: served.backend.database.db };
}

export function contextOf(organizationId: string, role: Role = "member"): RequestContext {
  return { organizationId, role, actor: { kind: "apiKey", id: "ingest-test" }, requestId: "ingest-test" };
}

/** Sends an export request as the gateway would: the raw JSON body and the X-Svc-Project header. */
export function ingest(
  harness: IngestHarness,
  project: ProjectFixture,
  body: unknown,
  options: { headers?: Record<string, unknown>; context?: RequestContext } = {},
) {
  return callOperation(
    harness.caller,
    operations.ingestTraces,
    options.context ?? contextOf(project.organizationId),
    {
      params: {},
      query: {},
      body,
      headers: options.headers ?? { xSvcProject: project.projectSlug },
    },
  );
}
