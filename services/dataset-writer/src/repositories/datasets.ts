import {
  type Database,
  type DatasetRecord,
  type DatasetRef,
  DatasetTakingImport,
  datasetNotFound,
  isUniqueViolation,
} from "@svc/db";
import { type Kysely, sql, type Transaction } from "kysely";

/**
 * Takes the next version of a dataset. The row lock this takes serialises every writer of the
 * dataset, on every replica, until the transaction ends; a rollback gives the number back. Refused
 * while an import writes that version in pieces (its own last step frees the dataset first).
 */
export async function takeNextVersion(
  trx: Transaction<Database>,
  ref: DatasetRef,
): Promise<{ datasetId: string; version: number }> {
  const row = await trx
    .updateTable("datasets as d")
    .from("projects as p")
    .set({ current_version: sql`d.current_version + 1`, updated_at: sql`now()` })
    .whereRef("p.id", "=", "d.project_id")
    .where("p.organization_id", "=", ref.organizationId)
    .where("p.slug", "=", ref.projectSlug)
    .where("d.slug", "=", ref.datasetSlug)
    .returning(["d.id", "d.current_version", "d.pending_import_id"])
    .executeTakeFirst();
  if (!row) throw datasetNotFound(ref);
  if (row.pending_import_id) throw new DatasetTakingImport(ref.datasetSlug, row.pending_import_id);
  return { datasetId: row.id, version: row.current_version };
}

/**
 * Moves the dataset's row count by `change` (inside the version's transaction, whose lock on the
 * dataset it shares) and answers the new count: the count at the version being written.
 */
export async function changeRowCount(
  trx: Transaction<Database>,
  datasetId: string,
  change: number,
): Promise<number> {
  const row = await trx
    .updateTable("datasets")
    .set({ row_count: sql`row_count + ${change}` })
    .where("id", "=", datasetId)
    .returning("row_count")
    .executeTakeFirstOrThrow();
  return row.row_count;
}

export async function existsDatasetSlug(
  db: Kysely<Database>,
  projectId: string,
  slug: string,
): Promise<boolean> {
  const row = await db
    .selectFrom("datasets")
    .select("id")
    .where("project_id", "=", projectId)
    .where("slug", "=", slug)
    .executeTakeFirst();
  return row !== undefined;
}

/** Which uniqueness rule of a project's datasets a write broke, if it broke one. */
export type DatasetClash = "name" | "slug";

/**
 * The clash a unique violation reports: `(project_id, lower(name))` or `(project_id, slug)`. The
 * database is the judge of uniqueness: a name taken by a transaction that committed after the
 * caller checked still ends here, never in a driver error.
 */
export function datasetClashOf(error: unknown): DatasetClash | undefined {
  if (isUniqueViolation(error, "datasets_project_name")) return "name";
  if (isUniqueViolation(error, "datasets_project_slug")) return "slug";
  return undefined;
}

export async function insertDataset(
  db: Kysely<Database>,
  values: Pick<DatasetRecord, "id" | "organizationId" | "projectId" | "slug" | "name" | "description">,
): Promise<void> {
  await db
    .insertInto("datasets")
    .values({
      id: values.id,
      organization_id: values.organizationId,
      project_id: values.projectId,
      slug: values.slug,
      name: values.name,
      description: values.description,
    })
    .execute();
}

export async function updateDataset(
  db: Kysely<Database>,
  id: string,
  changes: { name?: string | undefined; description?: string | null | undefined },
): Promise<void> {
  await db
    .updateTable("datasets")
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      updated_at: sql`now()`,
    })
    .where("id", "=", id)
    .execute();
}

export async function touchDataset(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable("datasets").set({ updated_at: sql`now()` }).where("id", "=", id).execute();
}

export async function deleteDataset(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom("datasets").where("id", "=", id).execute();
}

export async function existsDatasetName(
  db: Kysely<Database>,
  projectId: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  let query = db
    .selectFrom("datasets")
    .select("id")
    .where("project_id", "=", projectId)
    .where(sql`lower(name)`, "=", name.toLowerCase());
  if (exceptId) query = query.where("id", "<>", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/**
 * Refreshes the planner's statistics of the row tables from a sample of their rows. With `small`,
 * only their sizes and the dataset column's: no statistics of the cells and of the search index's
 * expressions, which cost the embedded database seconds (5 s after 300,000 rows), during which it
 * serves nothing else.
 */
export async function refreshStatistics(db: Kysely<Database>, { small = false } = {}): Promise<void> {
  if (small) await sql`ANALYZE dataset_rows (dataset_id), row_revisions (dataset_id)`.execute(db);
  else await sql`ANALYZE dataset_rows, row_revisions`.execute(db);
}
