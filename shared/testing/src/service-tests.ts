import type { Bus } from "@svc/bus";
import { newId } from "@svc/contracts";
import type { CopyTo, Database } from "@svc/db";
import { type Logger, silentLogger } from "@svc/telemetry";
import type { Kysely } from "kysely";
import { afterAll, beforeAll } from "vitest";
import { type Backend, type BackendName, openBackend } from "./backends";

/** What every service's `register…` takes from its process. */
export interface ServiceDeps {
  bus: Bus;
  db: Kysely<Database>;
  copyTo: CopyTo;
  logger: Logger;
}

/** A backend with one service serving on its bus; closing stops the service, then the backend. */
export interface ServedBackend {
  backend: Backend;
  close(): Promise<void>;
}

export async function serveOnBackend(
  name: BackendName,
  register: (deps: ServiceDeps) => { stop(): void },
): Promise<ServedBackend> {
  const backend = await openBackend(name);
  const service = register({
    bus: backend.bus,
    db: backend.database.db,
    copyTo: backend.database.copyTo,
    logger: silentLogger(),
  });
  return {
    backend,
    close: async () => {
      service.stop();
      await backend.close();
    },
  };
}

/**
 * A harness opened before a suite's tests and closed after them. The object is returned at once and
 * filled in by `beforeAll`: read its fields in hooks and tests, not while the suite is declared.
 */
export function harnessForSuite<H extends { close(): Promise<void> }>(open: () => Promise<H>): H {
  const harness = {} as H;
  let opened: H | undefined;
  beforeAll(async () => {
    opened = await open();
    Object.assign(harness, opened);
  });
  afterAll(async () => {
    await opened?.close();
  });
  return harness;
}

/** An organisation with one project, written straight to the database. */
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

/** Awaits a call expected to fail with a domain error and returns that error's code, message and details. */
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
