import { leastRole, roles } from "./access.generated";

/** A role in an organisation. */
export type Role = (typeof roles)[number];
/** An operation of the API, by its operationId. */
export type OperationId = keyof typeof leastRole;

/**
 * Whether a person of `role` may call the operation, as the operation table declares: what the web
 * offers them follows from it (a viewer sees no Save). The platform checks again on every call.
 */
export function mayCall(role: Role, operationId: OperationId): boolean {
  const least = leastRole[operationId];
  // roles run from the most able to the least: a role at or before the least one may.
  return least !== "operator" && roles.indexOf(role) <= roles.indexOf(least);
}
