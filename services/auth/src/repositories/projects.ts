import { DomainError } from "@svc/contracts";
import { type Database, isUniqueViolation } from "@svc/db";
import { type Kysely, sql } from "kysely";
import type { Position } from "../domain/cursor";

export interface ProjectRecord {
  id: string;
  organizationId: string;
  slug: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

const columns = [
  "id",
  "organization_id as organizationId",
  "slug",
  "name",
  "created_at as createdAt",
  "updated_at as updatedAt",
] as const;

/** The unique index on `(organization_id, lower(name))`. */
const NAME_INDEX = "projects_organization_name";

export const projectNameTaken = (name: string): DomainError =>
  new DomainError(
    "conflict",
    `A project named "${name}" already exists in this organisation (names are compared without regard to case); choose another name`,
    { name },
  );

/**
 * Inserts unless the organisation already has a project with that slug or that name (in any case),
 * even one committed meanwhile by a concurrent transaction: then undefined.
 */
export async function insertProjectIfFree(
  db: Kysely<Database>,
  project: ProjectRecord,
): Promise<ProjectRecord | undefined> {
  return db
    .insertInto("projects")
    .values({
      id: project.id,
      organization_id: project.organizationId,
      slug: project.slug,
      name: project.name,
      created_at: project.createdAt,
      updated_at: project.updatedAt,
    })
    .onConflict((oc) => oc.doNothing())
    .returning(columns)
    .executeTakeFirst();
}

/** Whether another project of the organisation (not `exceptId`) has this name, compared without case. */
export async function existsProjectName(
  db: Kysely<Database>,
  organizationId: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  let query = db
    .selectFrom("projects")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where(sql<string>`lower(name)`, "=", sql<string>`lower(${name})`);
  if (exceptId !== undefined) query = query.where("id", "<>", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

function projectBySlug(db: Kysely<Database>, organizationId: string, slug: string) {
  return db
    .selectFrom("projects")
    .select(columns)
    .where("organization_id", "=", organizationId)
    .where("slug", "=", slug);
}

const projectNotFound = (slug: string): DomainError =>
  new DomainError("not_found", `Project "${slug}" not found; list the projects to see their slugs`);

/** A project of this organisation; another organisation's is "not found" too, never "forbidden". */
export async function findProject(
  db: Kysely<Database>,
  organizationId: string,
  slug: string,
): Promise<ProjectRecord> {
  const row = await projectBySlug(db, organizationId, slug).executeTakeFirst();
  if (!row) throw projectNotFound(slug);
  return row;
}

/** As findProject, and locks the project until the transaction ends, so that it cannot vanish meanwhile. */
export async function findProjectForUpdate(
  db: Kysely<Database>,
  organizationId: string,
  slug: string,
): Promise<ProjectRecord> {
  const row = await projectBySlug(db, organizationId, slug).forUpdate().executeTakeFirst();
  if (!row) throw projectNotFound(slug);
  return row;
}

/** Up to `limit` projects in (created_at, id) order, strictly after `after` when given. */
export async function listProjects(
  db: Kysely<Database>,
  organizationId: string,
  after: Position | undefined,
  limit: number,
): Promise<ProjectRecord[]> {
  let query = db.selectFrom("projects").select(columns).where("organization_id", "=", organizationId);
  if (after) {
    query = query.where(({ eb, refTuple, tuple }) =>
      eb(refTuple("created_at", "id"), ">", tuple(after.createdAt, after.id)),
    );
  }
  return query.orderBy("created_at", "asc").orderBy("id", "asc").limit(limit).execute();
}

/**
 * Renames a project. A name taken by a transaction that committed after the caller looked is still
 * a conflict (from the unique index), never a driver error; the caller's transaction is then over.
 */
export async function updateProjectName(
  db: Kysely<Database>,
  id: string,
  name: string,
  at: Date,
): Promise<ProjectRecord> {
  try {
    return await db
      .updateTable("projects")
      .set({ name, updated_at: at })
      .where("id", "=", id)
      .returning(columns)
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error, NAME_INDEX)) throw projectNameTaken(name);
    throw error;
  }
}

/** Deletes a project; its datasets, with their rows, columns and versions, go with it (foreign keys cascade). */
export async function deleteProjectRecord(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom("projects").where("id", "=", id).execute();
}
