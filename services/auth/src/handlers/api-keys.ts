import { type Subscription, serveOperation } from "@svc/bus";
import { credentialRevokedEventSchema, operations, subjects } from "@svc/contracts";
import type { AuthDeps } from "../service";
import { createApiKey } from "../use-cases/create-api-key";
import { getApiKey } from "../use-cases/get-api-key";
import { listApiKeys } from "../use-cases/list-api-keys";
import { renameApiKey } from "../use-cases/rename-api-key";
import { type RevocationEvents, revokeApiKey } from "../use-cases/revoke-api-key";

export function serveApiKeys({ bus, db, logger }: AuthDeps): Subscription[] {
  const events: RevocationEvents = {
    credentialRevoked: (event) =>
      bus.publish(subjects.auth.credentialRevoked, credentialRevokedEventSchema.parse(event)),
  };
  return [
    serveOperation(bus, operations.listApiKeys, logger, (_input, caller) => listApiKeys(db, caller)),
    serveOperation(bus, operations.createApiKey, logger, (input, caller) => createApiKey(db, caller, input)),
    serveOperation(bus, operations.getApiKey, logger, (input, caller) => getApiKey(db, caller, input)),
    serveOperation(bus, operations.updateApiKey, logger, (input, caller) => renameApiKey(db, caller, input)),
    serveOperation(bus, operations.deleteApiKey, logger, (input, caller) =>
      revokeApiKey(db, events, caller, input),
    ),
  ];
}
