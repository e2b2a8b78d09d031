import { type Subscription, serveOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import type { AuthDeps } from "../service";
import { addMember } from "../use-cases/add-member";
import { listMembers } from "../use-cases/list-members";
import { removeMember } from "../use-cases/remove-member";
import { updateMember } from "../use-cases/update-member";

export function serveMembers({ bus, db, logger }: AuthDeps): Subscription[] {
  return [
    serveOperation(bus, operations.listMembers, logger, (input, caller) => listMembers(db, caller, input)),
    serveOperation(bus, operations.addMember, logger, (input, caller) => addMember(db, caller, input)),
    serveOperation(bus, operations.updateMember, logger, (input, caller) => updateMember(db, caller, input)),
    serveOperation(bus, operations.removeMember, logger, (input, caller) => removeMember(db, caller, input)),
  ];
}
