import { DomainError, type RequestContext } from "@svc/contracts";

/** The caller's organisation: every read is confined to it. */
export function organizationOf(context: RequestContext): string {
  if (context.organizationId === null) {
    throw new DomainError("unauthenticated", "This operation needs an API key");
  }
  return context.organizationId;
}
