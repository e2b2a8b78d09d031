import type { Subscription } from "@svc/bus";
import { operations } from "@svc/contracts";
import { serveOperation } from "@svc/service";
import type { AuthDeps } from "../deps";
import { createProject } from "../use-cases/create-project";
import { deleteProject } from "../use-cases/delete-project";
import { getProject } from "../use-cases/get-project";
import { listProjects } from "../use-cases/list-projects";
import { updateProject } from "../use-cases/update-project";

export function serveProjects({ bus, db, logger }: AuthDeps): Subscription[] {
  return [
    serveOperation(bus, operations.listProjects, logger, (input, caller) => listProjects(db, caller, input)),
    serveOperation(bus, operations.createProject, logger, (input, caller) =>
      createProject(db, caller, input),
    ),
    serveOperation(bus, operations.getProject, logger, (input, caller) => getProject(db, caller, input)),
    serveOperation(bus, operations.updateProject, logger, (input, caller) =>
      updateProject(db, caller, input),
    ),
    serveOperation(bus, operations.deleteProject, logger, (input, caller) =>
      deleteProject(db, caller, input),
    ),
  ];
}
