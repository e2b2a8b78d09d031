import { type Subscription, serveOperation } from "@svc/bus";
import { operations } from "@svc/contracts";
import { callerOf } from "../domain/caller";
import type { AuthDeps } from "../service";
import { createProject } from "../use-cases/create-project";
import { deleteProject } from "../use-cases/delete-project";
import { getProject } from "../use-cases/get-project";
import { listProjects } from "../use-cases/list-projects";
import { renameProject } from "../use-cases/rename-project";

export function serveProjects({ bus, db, logger }: AuthDeps): Subscription[] {
  return [
    serveOperation(bus, operations.listProjects, logger, (input, context) =>
      listProjects(db, callerOf(context), input),
    ),
    serveOperation(bus, operations.createProject, logger, (input, context) =>
      createProject(db, callerOf(context), input),
    ),
    serveOperation(bus, operations.getProject, logger, (input, context) =>
      getProject(db, callerOf(context), input),
    ),
    serveOperation(bus, operations.updateProject, logger, (input, context) =>
      renameProject(db, callerOf(context), input),
    ),
    serveOperation(bus, operations.deleteProject, logger, (input, context) =>
      deleteProject(db, callerOf(context), input),
    ),
  ];
}
