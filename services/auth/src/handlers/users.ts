import type { Subscription } from "@svc/bus";
import { operations } from "@svc/contracts";
import { serveOperation } from "@svc/service";
import type { AuthDeps } from "../deps";
import { updateAccountUser } from "../use-cases/update-account-user";

export function serveUsers({ bus, db, logger }: AuthDeps): Subscription[] {
  return [
    serveOperation(bus, operations.updateAccountUser, logger, (input, caller) =>
      updateAccountUser(db, caller, input),
    ),
  ];
}
