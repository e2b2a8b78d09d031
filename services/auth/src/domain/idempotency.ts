import type { Operation, RequestContext } from "@svc/contracts";
import { type IdempotencyScope, idempotencyOf } from "@svc/db";

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
  return idempotencyOf(
    { organizationId: OPERATOR_IDEMPOTENCY_SCOPE, idempotencyKey: context.idempotencyKey },
    op,
    input,
  );
}
