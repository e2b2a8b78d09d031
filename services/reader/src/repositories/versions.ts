import { type DatasetVersion, versionOperationSchema } from "@svc/contracts";
import { actorNameOf, actorOf, type Database, type DatasetVersionsTable } from "@svc/db";
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

type StoredVersion = Pick<Selectable<DatasetVersionsTable>, (typeof versionColumns)[number]> & {
  actor_name: string | null;
};

/** A dataset's versions, as stored, with the current name of the person who made each. */
function versionsOf(db: Kysely<Database>, datasetId: string) {
  return db
    .selectFrom("dataset_versions")
    .select(versionColumns)
    .select(actorNameOf("actor_kind", "actor_id").as("actor_name"))
    .where("dataset_id", "=", datasetId);
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
    actor: actorOf(row.actor_kind, row.actor_id, row.actor_name),
  };
}

/**
 * The versions after `after`, oldest first, at most `limit`, with (at most `maxRowIds + 1` of) the rows
 * each one changed: the revisions it began (an insert, an edit, a deletion's tombstone) or ended. Two
 * statements whatever the page's size; each version's look-up stops at `maxRowIds + 1` rows through the
 * `(dataset_id, version_from)` and `(dataset_id, version_to)` indexes, so that a version of a
 * million rows costs what one of a hundred does.
 */
export async function listVersionsAfter(
  db: Kysely<Database>,
  query: { datasetId: string; after: number; limit: number; maxRowIds: number },
): Promise<{ version: DatasetVersion; rowIds: string[] }[]> {
  const rows = await versionsOf(db, query.datasetId)
    .where("version", ">", query.after)
    .orderBy("version", "asc")
    .limit(query.limit)
    .execute();
  if (rows.length === 0) return [];
  const first = rows[0]?.version ?? 0;
  const last = rows[rows.length - 1]?.version ?? 0;
  // The rows whose revision began, or ended, at each version of the page.
  const touched = (bound: "version_from" | "version_to") =>
    db
      .selectFrom("dataset_versions as v")
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom("row_revisions as r")
            .select("r.row_id")
            .whereRef("r.dataset_id", "=", "v.dataset_id")
            .whereRef(`r.${bound}`, "=", "v.version")
            .limit(query.maxRowIds + 1)
            .as("touched"),
        (join) => join.onTrue(),
      )
      .select(["v.version", "touched.row_id"])
      .where("v.dataset_id", "=", query.datasetId)
      .where("v.version", ">=", first)
      .where("v.version", "<=", last);
  const changed = await touched("version_from").unionAll(touched("version_to")).execute();
  const byVersion = new Map<number, Set<string>>();
  for (const { version, row_id } of changed) {
    const ids = byVersion.get(version) ?? new Set<string>();
    ids.add(row_id);
    byVersion.set(version, ids);
  }
  return rows.map((row) => ({
    version: toVersion(row),
    rowIds: [...(byVersion.get(row.version) ?? [])].sort(),
  }));
}
