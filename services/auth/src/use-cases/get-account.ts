import { type Caller, DomainError, type OperationOutput, type operations } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { findOptionalOrganization } from "../repositories/organizations";
import { findOptionalUser } from "../repositories/users";
import { callerUserId } from "./caller-user";

export async function getAccount(
  db: Kysely<Database>,
  caller: Caller,
): Promise<OperationOutput<typeof operations.getAccount>> {
  const organization = await findOptionalOrganization(db, caller.organizationId);
  if (!organization) {
    // Only reachable when the organisation was deleted while a gateway still cached the key.
    throw new DomainError("unauthenticated", "The API key's organisation no longer exists");
  }
  const userId = await callerUserId(db, caller);
  const user = userId === undefined ? undefined : await findOptionalUser(db, userId);
  return {
    organization: { id: organization.id, name: organization.name, slug: organization.slug },
    role: caller.role,
    user: user ?? null,
  };
}
