import type { Subscription } from "@svc/bus";
import { credentialRevokedEventSchema, operations, subjects } from "@svc/contracts";
import { serveOperation } from "@svc/service";
import type { AuthDeps } from "../deps";
import { createApiKey } from "../use-cases/create-api-key";
import { deleteApiKey, type RevocationEvents } from "../use-cases/delete-api-key";
import { getApiKey } from "../use-cases/get-api-key";
import { listApiKeys } from "../use-cases/list-api-keys";
import { updateApiKey } from "../use-cases/update-api-key";

export function serveApiKeys({ bus, db, logger }: AuthDeps): Subscription[] {
  const events: RevocationEvents = {
    credentialRevoked: (event) =>
      bus.publish(subjects.auth.credentialRevoked, credentialRevokedEventSchema.parse(event)),
  };
  return [
    serveOperation(bus, operations.listApiKeys, logger, (_input, caller) => listApiKeys(db, caller)),
    serveOperation(bus, operations.createApiKey, logger, (input, caller) => createApiKey(db, caller, input)),
    serveOperation(bus, operations.getApiKey, logger, (input, caller) => getApiKey(db, caller, input)),
    serveOperation(bus, operations.updateApiKey, logger, (input, caller) => updateApiKey(db, caller, input)),
    serveOperation(bus, operations.deleteApiKey, logger, (input, caller) =>
      deleteApiKey(db, events, caller, input),
    ),
  ];
}
