import type { Role } from "@svc/sdk";
import { SvcError } from "../api";
import { ROLES } from "./roles";

/** The roles a person of `ownRole` may give: only an owner makes owners. */
export function rolesGivenBy(ownRole: Role): Role[] {
  return ownRole === "owner" ? ROLES : ROLES.filter((role) => role !== "owner");
}

/** Whether a person of `ownRole` may change or remove a member of `theirRole`: only an owner touches an owner. */
export const mayChange = (ownRole: Role, theirRole: Role): boolean =>
  (ownRole === "owner" || ownRole === "admin") && (theirRole !== "owner" || ownRole === "owner");

/** What an invitation's failure means for the person who sent it, in plain words; undefined for others. */
export function invitationProblem(error: unknown, email: string): string | undefined {
  if (!(error instanceof SvcError)) return undefined;
  if (error.status === 409) return `${email} is already a member of this organisation.`;
  if (error.status === 400) {
    return `“${email}” is not an e-mail address the platform can send to: check it for typing mistakes (${error.message}).`;
  }
  if (error.status === 403) {
    return `Only owners and admins invite members, and only an owner may invite an owner (${error.message}).`;
  }
  return undefined;
}

/** What a failed change of role or removal means, in plain words; undefined for others. */
export function changeProblem(error: unknown): string | undefined {
  if (!(error instanceof SvcError)) return undefined;
  if (error.status === 409) {
    return `The organisation needs an owner: make another member an owner first (${error.message}).`;
  }
  if (error.status === 403) return `Only an owner may change or remove an owner (${error.message}).`;
  return undefined;
}

/** What a failed "leave the organisation" means; undefined for others. */
export function leaveProblem(error: unknown): string | undefined {
  if (!(error instanceof SvcError)) return undefined;
  if (error.status === 409) {
    return "You are the organisation's last owner, so you cannot leave it: make another member an owner first, then leave.";
  }
  if (error.status === 403) {
    return `This session is not a person's, so there is no membership to leave (${error.message}).`;
  }
  return undefined;
}
