import { actorSchema, type DatasetVersion, versionOperationSchema } from "@svc/contracts";
import type { Database, DatasetVersionsTable } from "@svc/db";
import type { Kysely, Selectable } from "kysely";

const versionColumns = [
  "id",
  "version",
  "operation",
  "rows_inserted",
  "rows_updated",
  "rows_deleted",
  "row_count",
  "actor_kind",
  "actor_id",
  "created_at",
] as const;

type StoredVersion = Pick<Selectable<DatasetVersionsTable>, (typeof versionColumns)[number]>;

/** A dataset's versions, as stored. */
function versionsOf(db: Kysely<Database>, datasetId: string) {
  return db.selectFrom("dataset_versions").select(versionColumns).where("dataset_id", "=", datasetId);
}

/** A page (of `limit`) of a dataset's versions, newest first, older than `before` when given. */
export async function listVersions(
  db: Kysely<Database>,
  query: { datasetId: string; before: number | undefined; limit: number },
): Promise<DatasetVersion[]> {
  const before = query.before;
  const rows = await versionsOf(db, query.datasetId)
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
  const row = await versionsOf(db, datasetId).where("version", "=", version).executeTakeFirst();
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
    rows: row.row_count,
    actor: { kind: actorSchema.shape.kind.parse(row.actor_kind), id: row.actor_id },
  };
}
