import type { Subscription } from "@svc/bus";
import { operations } from "@svc/contracts";
import { serveOperatorOperation } from "@svc/service";
import type { AuthDeps } from "../deps";
import { createOrganization } from "../use-cases/create-organization";
import { peopleDepsOf } from "./people-deps";

/** Operators only: the gateway admits this operation with the operator token, never an API key. */
export function serveOrganizations(deps: AuthDeps): Subscription[] {
  const people = peopleDepsOf(deps);
  return [
    serveOperatorOperation(deps.bus, operations.createOrganization, deps.logger, (input, context) =>
      createOrganization(people, context, input),
    ),
  ];
}
