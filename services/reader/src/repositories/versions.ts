import { actorSchema, type DatasetVersion, versionOperationSchema } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";

interface StoredVersion {
  id: string;
  version: number;
  operation: string;
  rows_inserted: number;
  rows_updated: number;
  rows_deleted: number;
  actor_kind: string;
  actor_id: string;
  created_at: Date;
}

const versionColumns = [
  "id",
  "version",
  "operation",
  "rows_inserted",
  "rows_updated",
  "rows_deleted",
  "actor_kind",
  "actor_id",
  "created_at",
] as const;

/** A page (of `limit`) of a dataset's versions, newest first, older than `before` when given. */
export async function listVersions(
  db: Kysely<Database>,
  query: { datasetId: string; before: number | undefined; limit: number },
): Promise<DatasetVersion[]> {
  const before = query.before;
  const rows = await db
    .selectFrom("dataset_versions")
    .select(versionColumns)
    .where("dataset_id", "=", query.datasetId)
    .$if(before !== undefined, (qb) => qb.where("version", "<", before ?? 0))
    .orderBy("version", "desc")
    .limit(query.limit)
    .execute();
  return rows.map(toVersion);
}

export async function findOptionalVersion(
  db: Kysely<Database>,
  datasetId: string,
  version: number,
): Promise<DatasetVersion | undefined> {
  const row = await db
    .selectFrom("dataset_versions")
    .select(versionColumns)
    .where("dataset_id", "=", datasetId)
    .where("version", "=", version)
    .executeTakeFirst();
  return row && toVersion(row);
}

function toVersion(row: StoredVersion): DatasetVersion {
  return {
    versionId: row.id,
    version: row.version,
    createdAt: row.created_at.toISOString(),
    operation: versionOperationSchema.parse(row.operation),
    rowsInserted: row.rows_inserted,
    rowsUpdated: row.rows_updated,
    rowsDeleted: row.rows_deleted,
    actor: { kind: actorSchema.shape.kind.parse(row.actor_kind), id: row.actor_id },
  };
}
