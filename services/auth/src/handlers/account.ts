import type { Subscription } from "@svc/bus";
import { operations } from "@svc/contracts";
import { serveOperation } from "@svc/service";
import type { AuthDeps } from "../deps";
import { getAccount } from "../use-cases/get-account";

export function serveAccount({ bus, db, logger }: AuthDeps): Subscription[] {
  return [serveOperation(bus, operations.getAccount, logger, (_input, caller) => getAccount(db, caller))];
}
