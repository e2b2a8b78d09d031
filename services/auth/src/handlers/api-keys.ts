import { type Subscription, serveOperation } from "@svc/bus";
import { credentialRevokedEventSchema, operations, subjects } from "@svc/contracts";
import { callerOf } from "../domain/caller";
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
    serveOperation(bus, operations.listApiKeys, logger, (_input, context) =>
      listApiKeys(db, callerOf(context)),
    ),
    serveOperation(bus, operations.createApiKey, logger, (input, context) =>
      createApiKey(db, callerOf(context), input),
    ),
    serveOperation(bus, operations.getApiKey, logger, (input, context) =>
      getApiKey(db, callerOf(context), input),
    ),
    serveOperation(bus, operations.updateApiKey, logger, (input, context) =>
      renameApiKey(db, callerOf(context), input),
    ),
    serveOperation(bus, operations.deleteApiKey, logger, (input, context) =>
      revokeApiKey(db, events, callerOf(context), input),
    ),
  ];
}
