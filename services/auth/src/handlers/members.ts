import { type Subscription, serveOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import { callerOf } from "../domain/caller";
import type { AuthDeps } from "../service";
import { addMember } from "../use-cases/add-member";
import { changeMemberRole } from "../use-cases/change-member-role";
import { listMembers } from "../use-cases/list-members";
import { removeMember } from "../use-cases/remove-member";

export function serveMembers({ bus, db, logger }: AuthDeps): Subscription[] {
  return [
    serveOperation(bus, operations.listMembers, logger, (input, context) =>
      listMembers(db, callerOf(context), input),
    ),
    serveOperation(bus, operations.addMember, logger, (input, context) =>
      addMember(db, callerOf(context), input),
    ),
    serveOperation(bus, operations.updateMember, logger, (input, context) =>
      changeMemberRole(db, callerOf(context), input),
    ),
    serveOperation(bus, operations.removeMember, logger, (input, context) =>
      removeMember(db, callerOf(context), input),
    ),
  ];
}
