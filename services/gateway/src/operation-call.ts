import {
  authorise,
  type Bus,
  type BusReply,
  operationAnswer,
  outcomeUnknown,
  parseOperationInput,
  type RawInput,
} from "@svc/bus";
import {
  findUnstorableInput,
  type Operation,
  type OperationInput,
  type OperationOutput,
  type RequestContext,
} from "@svc/contracts";
import type { Logger } from "@svc/telemetry";
import { type RateLimiter, rateLimitedError } from "./rate-limit";
import { type ResendPolicy, requestWrite, resendsWrite, withIdempotencyKey } from "./write-resends";

export interface OperationCallDeps {
  bus: Bus;
  timeoutMs: number;
  rateLimiter: RateLimiter;
  /** When a write whose service went silent is sent again (see write-resends.ts). */
  resends?: ResendPolicy;
  /** Where a write answered `outcome_unknown` is told, with how each of its tries ended. */
  logger?: Pick<Logger, "warn">;
}

/**
 * The one path every call of an operation takes once its caller is known, whether it came as an HTTP
 * request or as an MCP tool call: rate limits, role check, then one bus request (for a dataset write,
 * as many as it takes to know its outcome: see `send`). Limits come first, so that a client past its
 * limit costs nothing more, and here, so that no surface can skip them. The input is validated once, by the service, with the same function and the same errors as here: parsing
 * it in the gateway as well cost about a quarter of the gateway's work on an edit, and the gateway is
 * what saturates first under load (docs/performance.md). The status is the operation's own success
 * status unless the service chose another (a restore that changes nothing answers 200, not 201).
 */
export async function invokeOperation<O extends Operation>(
  deps: OperationCallDeps,
  op: O,
  context: RequestContext,
  raw: RawInput,
): Promise<{ status: Operation["successStatus"]; data: OperationOutput<O> }> {
  await admitCaller(deps, op, context);
  // What the bus cannot carry (a body nested deeper than serialising it for the bus allows) is refused
  // here with the error the service would give, by the same function; the walk costs little.
  if (findUnstorableInput(raw.body, { text: op.unstorableText === "refuse" })) parseOperationInput(op, raw);
  return operationAnswer(op, await send(deps, op, context, raw));
}

/**
 * One bus request, or for a write of the dataset-writer as many as it takes to learn whether it was
 * applied (see `requestWrite`). A write whose outcome stays unknown is answered `outcome_unknown`,
 * whichever service it went to; a read that timed out is only a read, answered as the bus says.
 */
async function send(
  deps: OperationCallDeps,
  op: Operation,
  context: RequestContext,
  raw: RawInput,
): Promise<BusReply> {
  if (resendsWrite(op)) {
    const request = { context: withIdempotencyKey(context), input: raw };
    return requestWrite(deps.bus, op.subject, request, deps.timeoutMs, deps.resends, (tries) =>
      deps.logger?.warn(
        { requestId: context.requestId, operation: op.operationId, tries },
        "write outcome unknown",
      ),
    );
  }
  const reply = await deps.bus.request(op.subject, { context, input: raw }, { timeoutMs: deps.timeoutMs });
  return !reply.ok && reply.outcome === "unknown" && !op.effect.readOnly ? outcomeUnknown(op.subject) : reply;
}

/**
 * What a call of an operation passes before a service sees it, for the paths that call services
 * themselves (a file streamed piece by piece), whose requests to the service are not the HTTP input:
 * the caller's limits and role, then the input as the operation's schemas parse it.
 */
export async function admitOperationCall<O extends Operation>(
  deps: OperationCallDeps,
  op: O,
  context: RequestContext,
  raw: RawInput,
): Promise<OperationInput<O>> {
  await admitCaller(deps, op, context);
  return parseOperationInput(op, raw);
}

async function admitCaller(deps: OperationCallDeps, op: Operation, context: RequestContext): Promise<void> {
  await enforceRateLimits(deps.rateLimiter, context);
  // The services check it again with the same function; here, a refusal costs them nothing.
  authorise(op, context);
}

/** Every credential of an organisation is limited; the operator token is not. */
async function enforceRateLimits(limiter: RateLimiter, context: RequestContext): Promise<void> {
  if (context.actor === null || context.organizationId === null) return;
  const decision = await limiter.checkCaller(context.actor, context.organizationId);
  if (!decision.allowed) throw rateLimitedError(decision);
}
