import { DomainError } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Transaction } from "kysely";
import { countOwnerMembers, type MemberRecord } from "../repositories/members";

/**
 * An organisation that has owner members keeps at least one. The caller holds the organisation's lock
 * (lockOrganization), so two owners demoting each other at once cannot both pass this check.
 * Organisations whose owners are only keys have no owner member to lose, so they are not held back.
 */
export async function assertNotLastOwnerMember(
  trx: Transaction<Database>,
  member: MemberRecord,
  action: "demote" | "remove" | "leave",
): Promise<void> {
  if (member.role !== "owner") return;
  if ((await countOwnerMembers(trx, member.organizationId)) > 1) return;
  if (action === "leave") {
    throw new DomainError(
      "conflict",
      "You are the organisation's last owner, so it would be left without one; make another member an owner first, then leave",
      { id: member.id },
    );
  }
  throw new DomainError(
    "conflict",
    `"${member.email ?? member.name}" is the organisation's last owner, so the organisation would be left without one; make another member an owner first, then ${action} this one`,
    { id: member.id },
  );
}
