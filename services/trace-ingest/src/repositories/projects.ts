import { DomainError } from "@svc/contracts";
import type { Db } from "./db";

/** The project of a slug inside the caller's organisation; another organisation's is not found. */
export async function findProjectId(db: Db, organizationId: string, projectSlug: string): Promise<string> {
  const project = await db
    .selectFrom("projects")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("slug", "=", projectSlug)
    .executeTakeFirst();
  if (!project) {
    throw new DomainError(
      "not_found",
      `Project "${projectSlug}" not found; set X-Svc-Project to the slug of one of your projects`,
      { project: projectSlug },
    );
  }
  return project.id;
}
