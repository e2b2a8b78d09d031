import { DomainError } from "@svc/contracts";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "./schema";

/*
 * Finding a project or a dataset by its slugs inside the caller's organisation: the writer, the reader
 * and trace-ingest all start from one, so the lookup lives here once. Another organisation's is not
 * found, never forbidden.
 */

/** A dataset as a request names it: by slugs, inside the caller's organisation. */
export interface DatasetRef {
  organizationId: string;
  projectSlug: string;
  datasetSlug: string;
}

export interface DatasetRecord {
  id: string;
  organizationId: string;
  projectId: string;
  slug: string;
  name: string;
  description: string | null;
  version: number;
  /** Rows at `version`. */
  rowCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export const datasetNotFound = (ref: DatasetRef): DomainError =>
  new DomainError("not_found", `Dataset "${ref.datasetSlug}" not found in project "${ref.projectSlug}"`);

/** A change refused while an import writes the dataset's next version in pieces (decision 0055). */
export class DatasetTakingImport extends DomainError {
  constructor(datasetSlug: string, importId: string) {
    super(
      "conflict",
      `Dataset "${datasetSlug}" is taking an import, which is writing its next version; nothing was changed. Change it once import "${importId}" has finished (GET …/datasets/${datasetSlug}/imports/${importId} shows its progress)`,
      { importId },
    );
  }
}

export async function findOptionalProjectId(
  db: Kysely<Database>,
  organizationId: string,
  projectSlug: string,
): Promise<string | undefined> {
  const project = await db
    .selectFrom("projects")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("slug", "=", projectSlug)
    .executeTakeFirst();
  return project?.id;
}

export async function findProjectId(
  db: Kysely<Database>,
  organizationId: string,
  projectSlug: string,
): Promise<string> {
  const projectId = await findOptionalProjectId(db, organizationId, projectSlug);
  if (projectId === undefined) throw new DomainError("not_found", `Project "${projectSlug}" not found`);
  return projectId;
}

/** The columns of `datasets as d` that make a DatasetRecord. */
export const datasetColumns = [
  "d.id",
  "d.organization_id as organizationId",
  "d.project_id as projectId",
  "d.slug",
  "d.name",
  "d.description",
  "d.current_version as version",
  "d.row_count as rowCount",
  "d.created_at as createdAt",
  "d.updated_at as updatedAt",
] as const;

function selectDataset(db: Kysely<Database>, ref: DatasetRef) {
  return db
    .selectFrom("datasets as d")
    .innerJoin("projects as p", "p.id", "d.project_id")
    .select(datasetColumns)
    .where("p.organization_id", "=", ref.organizationId)
    .where("p.slug", "=", ref.projectSlug)
    .where("d.organization_id", "=", ref.organizationId)
    .where("d.slug", "=", ref.datasetSlug);
}

export async function findDataset(db: Kysely<Database>, ref: DatasetRef): Promise<DatasetRecord> {
  const dataset = await selectDataset(db, ref).executeTakeFirst();
  if (!dataset) throw datasetNotFound(ref);
  return dataset;
}

/** Locks the dataset's row until the transaction ends: column changes serialise with edits. */
export async function findDatasetForUpdate(
  trx: Transaction<Database>,
  ref: DatasetRef,
): Promise<DatasetRecord> {
  const dataset = await selectDataset(trx, ref).forUpdate("d").executeTakeFirst();
  if (!dataset) throw datasetNotFound(ref);
  return dataset;
}

/**
 * How many rows the dataset had at `version`, as its version recorded it (decision 0036); none
 * before version 1.
 */
export async function countRowsAtVersion(
  db: Kysely<Database>,
  datasetId: string,
  version: number,
): Promise<number> {
  const row = await db
    .selectFrom("dataset_versions")
    .select("row_count")
    .where("dataset_id", "=", datasetId)
    .where("version", "=", version)
    .executeTakeFirst();
  return row?.row_count ?? 0;
}
