import { type Bus, callOperation, type RawInput } from "@svc/bus";
import type { Actor, Operation, OperationOutput, RequestContext, Role } from "@svc/contracts";
import type { Database } from "@svc/db";
import {
  type BackendName,
  harnessForSuite,
  makeProject,
  type ProjectFixture,
  type ServedBackend,
  serveOnBackend,
} from "@svc/testing";
import type { Kysely } from "kysely";
import { registerExperiments } from "./service";

export { failure } from "@svc/testing";

/** A backend with the experiments service on it, a bus to call it from, and a project of its own. */
export interface ExperimentsSuite extends ServedBackend {
  caller: Bus;
  db: Kysely<Database>;
  project: ProjectFixture;
  /** Calls an operation as a member's key of the suite's organisation, or as `as` says. */
  call<O extends Operation>(op: O, input?: CallInput, as?: CallerOptions): Promise<OperationOutput<O>>;
}

export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

export interface CallerOptions {
  role?: Role;
  actor?: Actor;
  organizationId?: string;
  idempotencyKey?: string;
}

/** The service for one suite, started before its tests and stopped after them. */
export function experimentsSuite(name: BackendName): ExperimentsSuite {
  const suite = harnessForSuite(async () => {
    const served = await serveOnBackend(name, registerExperiments);
    const db = served.backend.database.db;
    return { ...served, caller: await served.backend.connectBus(), db, project: await makeProject(db) };
  });
  return Object.assign(suite, {
    call: <O extends Operation>(op: O, input: CallInput = {}, as: CallerOptions = {}) => {
      const context: RequestContext = {
        organizationId: as.organizationId ?? suite.project.organizationId,
        role: as.role ?? "member",
        actor: as.actor ?? { kind: "apiKey", id: "experiments-test" },
        requestId: "experiments-test",
        ...(as.idempotencyKey ? { idempotencyKey: as.idempotencyKey } : {}),
      };
      const raw: RawInput = {
        params: { projectSlug: suite.project.projectSlug, ...input.params },
        query: input.query ?? {},
        body: input.body,
        headers: {},
      };
      return callOperation(suite.caller, op, context, raw);
    },
  });
}
