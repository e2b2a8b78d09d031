import { DomainError, type Role, roleAtLeast, roles } from "@svc/contracts";

const grantees = { key: "a new key may have", member: "a member may have" } as const;

/** A key may only hand out roles up to its own, or an admin key could mint owners. */
export function assertMayGrant(callerRole: Role, role: Role, grantee: keyof typeof grantees): void {
  if (roleAtLeast(callerRole, role)) return;
  const grantable = roles.filter((candidate) => roleAtLeast(callerRole, candidate));
  throw new DomainError(
    "forbidden",
    `This key's role (${callerRole}) may not grant the ${role} role; ${grantees[grantee]} ${listed(grantable)}`,
    { role, grantable },
  );
}

/**
 * Changing or removing someone takes access away from them; a key may only do that to holders of a
 * role no higher than its own.
 */
export function assertMayManage(callerRole: Role, targetRole: Role, action: string): void {
  if (roleAtLeast(callerRole, targetRole)) return;
  throw new DomainError(
    "forbidden",
    `This key's role (${callerRole}) may not ${action} with the ${targetRole} role; use a key with the ${targetRole} role`,
  );
}

const listed = (items: readonly string[]): string =>
  items.length > 1 ? `${items.slice(0, -1).join(", ")} or ${items.at(-1)}` : (items[0] ?? "");
