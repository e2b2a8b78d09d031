import type { Caller, Operation, RequestContext } from "@svc/contracts";
import type { IdempotencyScope } from "@svc/db";

/**
 * The idempotency scope of a request, present when the client sent an Idempotency-Key. `input` is the
 * parsed input, so a retry must name the same target and send the same body to get the first answer.
 */
export function idempotencyOf(caller: Caller, op: Operation, input: unknown): IdempotencyScope | undefined {
  if (!caller.idempotencyKey) return undefined;
  return {
    organizationId: caller.organizationId,
    key: caller.idempotencyKey,
    operationId: op.operationId,
    request: input,
  };
}

/**
 * Where operator calls keep their idempotency keys: they have no organisation, and records are scoped
 * by one. Organisation ids are CUID2 strings (lower-case letters and digits), so this never collides.
 */
const OPERATOR_IDEMPOTENCY_SCOPE = "@operator";

/** The idempotency scope of an operator request (the operator token, no organisation). */
export function operatorIdempotencyOf(
  context: RequestContext,
  op: Operation,
  input: unknown,
): IdempotencyScope | undefined {
  if (!context.idempotencyKey) return undefined;
  return {
    organizationId: OPERATOR_IDEMPOTENCY_SCOPE,
    key: context.idempotencyKey,
    operationId: op.operationId,
    request: input,
  };
}
