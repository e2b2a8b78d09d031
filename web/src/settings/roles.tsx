import type { Role } from "@svc/sdk";

/** The roles, from the most rights to the fewest. */
export const ROLES: Role[] = ["owner", "admin", "member", "viewer"];

/** A role picker's options, one per role. */
export function RoleOptions({ roles }: { roles: readonly Role[] }) {
  return roles.map((role) => (
    <option key={role} value={role}>
      {role}
    </option>
  ));
}
