import { type Subscription, serveOperatorOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { AuthDeps } from "../service";
import { createOrganization } from "../use-cases/create-organization";

/** Operators only: the gateway admits this operation with the operator token, never an API key. */
export function serveOrganizations({ bus, db, logger }: AuthDeps): Subscription[] {
  return [
    serveOperatorOperation(bus, operations.createOrganization, logger, (input, context) =>
      createOrganization(db, context, input),
    ),
  ];
}
