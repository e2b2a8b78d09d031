import type { Operation } from "@svc/contracts";
import type { IdempotencyScope } from "@svc/db";
import type { Caller } from "./caller";

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
