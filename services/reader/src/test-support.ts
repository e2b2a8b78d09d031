import { type Bus, callOperation, type RawInput } from "@svc/bus";
import type { Operation, OperationOutput, RequestContext, Role } from "@svc/contracts";
import { type BackendName, type ProjectFixture, type ServedBackend, serveOnBackend } from "@svc/testing";
import { registerReader } from "./service";

export { failure } from "@svc/testing";

/** A backend with the reader serving on it, and a bus of its own to call it from, as the gateway would. */
export interface ReaderHarness extends ServedBackend {
  caller: Bus;
}

export async function startReader(name: BackendName): Promise<ReaderHarness> {
  const served = await serveOnBackend(name, registerReader);
  return { ...served, caller: await served.backend.connectBus() };
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
