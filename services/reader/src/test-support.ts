import { type Bus, callOperation, type RawInput } from "@svc/bus";
import type { Operation, OperationOutput, RequestContext, Role } from "@svc/contracts";
import { silentLogger } from "@svc/telemetry";
import { type Backend, type BackendName, openBackend } from "@svc/testing";
import { registerReader } from "./service";
import type { ProjectFixture } from "./test-factories";

/** A backend with the reader serving on it, and a bus of its own to call it from, as the gateway would. */
export interface ReaderHarness {
  backend: Backend;
  caller: Bus;
  close(): Promise<void>;
}

export async function startReader(name: BackendName): Promise<ReaderHarness> {
  const backend = await openBackend(name);
  const service = registerReader({ bus: backend.bus, db: backend.database.db, logger: silentLogger() });
  const caller = await backend.connectBus();
  return {
    backend,
    caller,
    close: async () => {
      service.stop();
      await backend.close();
    },
  };
}

export function contextOf(organizationId: string, role: Role = "viewer"): RequestContext {
  return { organizationId, role, actor: { kind: "apiKey", id: "reader-test" }, requestId: "reader-test" };
}

/** Calls an operation as a key of the project's organisation; params and query as a URL gives them. */
export function call<O extends Operation>(
  harness: ReaderHarness,
  project: ProjectFixture,
  op: O,
  input: { params?: Record<string, string>; query?: Record<string, string | string[]> } = {},
  context: RequestContext = contextOf(project.organizationId),
): Promise<OperationOutput<O>> {
  const raw: RawInput = {
    params: { projectSlug: project.projectSlug, ...input.params },
    query: input.query ?? {},
    body: undefined,
    headers: {},
  };
  return callOperation(harness.caller, op, context, raw);
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
