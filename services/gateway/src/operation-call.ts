import { type Bus, callOperationWithStatus, parseOperationInput, type RawInput } from "@svc/bus";
import {
  DomainError,
  type Operation,
  type OperationInput,
  type OperationOutput,
  type RequestContext,
  roleAtLeast,
} from "@svc/contracts";
import { type RateLimiter, rateLimitedError } from "./rate-limit";

export interface OperationCallDeps {
  bus: Bus;
  timeoutMs: number;
  rateLimiter: RateLimiter;
}

/**
 * The one path every call of an operation takes once its caller is known, whether it came as an HTTP
 * request or as an MCP tool call: rate limits, role check, validation against the operation's schemas,
 * then one bus request. Limits come first, so that a client past its limit costs nothing more, and
 * here, so that no surface can skip them. The status is the operation's own success status unless the
 * service chose another (a restore that changes nothing answers 200, not 201).
 */
export async function invokeOperation<O extends Operation>(
  deps: OperationCallDeps,
  op: O,
  context: RequestContext,
  raw: RawInput,
): Promise<{ status: Operation["successStatus"]; data: OperationOutput<O> }> {
  await admitOperationCall(deps, op, context, raw);
  return callOperationWithStatus(deps.bus, op, context, raw, { timeoutMs: deps.timeoutMs });
}

/**
 * What every call of an operation passes before a service sees it, for the paths that call services
 * themselves (a file streamed piece by piece): the caller's limits, role and input. Returns the input
 * as the operation's schemas parse it.
 */
export async function admitOperationCall<O extends Operation>(
  deps: OperationCallDeps,
  op: O,
  context: RequestContext,
  raw: RawInput,
): Promise<OperationInput<O>> {
  await enforceRateLimits(deps.rateLimiter, context);
  authorise(op, context);
  return parseOperationInput(op, raw);
}

/** Every credential of an organisation is limited; the operator token is not. */
async function enforceRateLimits(limiter: RateLimiter, context: RequestContext): Promise<void> {
  if (context.actor === null || context.organizationId === null) return;
  const decision = await limiter.checkCaller(context.actor, context.organizationId);
  if (!decision.allowed) throw rateLimitedError(decision);
}

/** The caller's role must reach the operation's least role; operator operations were checked by token. */
function authorise(op: Operation, context: RequestContext): void {
  if (op.access === "operator") {
    if (context.organizationId !== null) {
      throw new DomainError("unauthenticated", "This route needs the operator token");
    }
    return;
  }
  if (context.role === null || context.organizationId === null) {
    throw new DomainError("unauthenticated", "This operation needs an API key");
  }
  if (!roleAtLeast(context.role, op.access)) {
    throw new DomainError(
      "forbidden",
      `This key's role (${context.role}) may not do this; ${op.operationId} needs ${op.access} or higher`,
      { role: context.role, required: op.access },
    );
  }
}
