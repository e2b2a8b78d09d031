import {
  type Caller,
  type CredentialRevokedEvent,
  DomainError,
  type OperationInput,
  operations,
} from "@svc/contracts";
import { type Database, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { grantRevoked } from "../domain/oauth";
import { assertMayManage } from "../domain/roles";
import { sessionEnded } from "../domain/sessions";
import { countActiveOwnerKeys, findActiveApiKey, updateApiKeyRevoked } from "../repositories/api-keys";
import { listOpenBrowserSessionIdsOfApiKey } from "../repositories/browser-sessions";
import { findUnrevokedOAuthGrantIdsOfApiKey } from "../repositories/oauth-grants";
import { lockOrganization } from "../repositories/organizations";

export interface RevocationEvents {
  /** Called once the revocation is committed, so that no gateway keeps accepting the key from its cache. */
  credentialRevoked(event: CredentialRevokedEvent): void;
}

export async function deleteApiKey(
  db: Kysely<Database>,
  events: RevocationEvents,
  caller: Caller,
  input: OperationInput<typeof operations.deleteApiKey>,
): Promise<null> {
  const { params } = input;
  await runIdempotent(db, idempotencyOf(caller, operations.deleteApiKey, input), async (trx) => {
    // One revocation per organisation at a time: two owners revoking each other's keys at once must
    // not leave the organisation without an owner.
    await lockOrganization(trx, caller.organizationId);
    const key = await findActiveApiKey(trx, caller.organizationId, params.id);
    // Revoking takes access away from someone else; an admin may not do that to an owner.
    assertMayManage(caller.role, key.role, "revoke a key");
    if (key.role === "owner" && (await countActiveOwnerKeys(trx, caller.organizationId)) <= 1) {
      throw new DomainError(
        "conflict",
        "This is the organisation's last active owner key, so revoking it would lock every owner out; create another owner key first, then revoke this one",
        { id: key.id },
      );
    }
    await updateApiKeyRevoked(trx, key.id, new Date());
    return null;
  });
  // Also on a replay: telling the gateways again is harmless, and the first telling may have been lost.
  events.credentialRevoked({ actor: { kind: "apiKey", id: params.id } });
  // The grants the key approved end with it, but gateways know their tokens by grant, not by key.
  const grants = await findUnrevokedOAuthGrantIdsOfApiKey(db, caller.organizationId, params.id);
  for (const grantId of grants) events.credentialRevoked(grantRevoked(grantId));
  // So do the browser sessions opened with it (verification refuses them too, once a cache forgets).
  const sessions = await listOpenBrowserSessionIdsOfApiKey(db, params.id);
  for (const sessionId of sessions) events.credentialRevoked(sessionEnded(sessionId));
  return null;
}
