import { type Actor, DomainError, type RequestContext, type Role } from "@svc/contracts";

/** Who calls an operation that needs an API key: never null, unlike the raw request context. */
export interface Caller {
  organizationId: string;
  role: Role;
  actor: Actor | null;
  /** The request's Idempotency-Key, when the client sent one. */
  idempotencyKey?: string | undefined;
}

export function callerOf(context: RequestContext): Caller {
  if (context.organizationId === null || context.role === null) {
    throw new DomainError("unauthenticated", "This operation needs an API key");
  }
  return {
    organizationId: context.organizationId,
    role: context.role,
    actor: context.actor,
    idempotencyKey: context.idempotencyKey,
  };
}
