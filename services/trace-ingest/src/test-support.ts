import { type Bus, callOperation } from "@svc/bus";
import { newId, operations, type RequestContext, type Role } from "@svc/contracts";
import type { Database } from "@svc/db";
import { silentLogger } from "@svc/telemetry";
import { type Backend, type BackendName, openBackend } from "@svc/testing";
import type { Kysely } from "kysely";
import { registerTraceIngest } from "./service";

/** A backend with trace-ingest serving on it, and a bus of its own to call it from, as the gateway would. */
export interface IngestHarness {
  backend: Backend;
  caller: Bus;
  db: Kysely<Database>;
  close(): Promise<void>;
}

export async function startIngest(name: BackendName): Promise<IngestHarness> {
  const backend = await openBackend(name);
  const db = backend.database.db;
  const service = registerTraceIngest({ bus: backend.bus, db, logger: silentLogger() });
  const caller = await backend.connectBus();
  return {
    backend,
    caller,
    db,
    close: async () => {
      service.stop();
      await backend.close();
    },
  };
}

export interface ProjectFixture {
  organizationId: string;
  projectId: string;
  projectSlug: string;
}

export async function makeProject(db: Kysely<Database>): Promise<ProjectFixture> {
  const organizationId = newId();
  const projectId = newId();
  const projectSlug = `project-${projectId.slice(0, 8)}`;
  await db
    .insertInto("organizations")
    .values({ id: organizationId, name: "Org", slug: `org-${organizationId}` })
    .execute();
  await db
    .insertInto("projects")
    .values({ id: projectId, organization_id: organizationId, slug: projectSlug, name: projectSlug })
    .execute();
  return { organizationId, projectId, projectSlug };
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

/** Awaits a call expected to fail with a domain error and returns that error. */
export async function failure(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; details?: unknown }> {
  try {
    await promise;
  } catch (error) {
    const { code, message, details } = error as { code: string; message: string; details?: unknown };
    return details === undefined ? { code, message } : { code, message, details };
  }
  throw new Error("expected the call to fail, but it succeeded");
}
