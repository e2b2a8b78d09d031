import type { Subscription } from "@svc/bus";
import { operations } from "@svc/contracts";
import { serveOperation } from "@svc/service";
import type { AuthDeps } from "../deps";
import { addMember } from "../use-cases/add-member";
import { leaveOrganization } from "../use-cases/leave-organization";
import { listMembers } from "../use-cases/list-members";
import { removeMember } from "../use-cases/remove-member";
import { updateMember } from "../use-cases/update-member";
import { peopleDepsOf, revocationEventsOf } from "./people-deps";

export function serveMembers(deps: AuthDeps): Subscription[] {
  const { bus, db, logger } = deps;
  const people = peopleDepsOf(deps);
  const events = revocationEventsOf(deps);
  return [
    serveOperation(bus, operations.listMembers, logger, (input, caller) => listMembers(db, caller, input)),
    serveOperation(bus, operations.addMember, logger, (input, caller) => addMember(people, caller, input)),
    serveOperation(bus, operations.updateMember, logger, (input, caller) => updateMember(db, caller, input)),
    serveOperation(bus, operations.removeMember, logger, (input, caller) =>
      removeMember(db, events, caller, input),
    ),
    serveOperation(bus, operations.leaveOrganization, logger, (input, caller) =>
      leaveOrganization(db, events, caller, input),
    ),
  ];
}
