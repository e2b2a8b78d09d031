import { type Kysely, sql } from "kysely";

/**
 * Every dataset version records how many rows the dataset has at it, and every dataset how many it has
 * now, so that a count is a read of one column instead of a scan of the rows on every page view. The
 * writer keeps both in the transaction that writes the version.
 *
 * The backfill counts from the revisions, not from the versions' own insert and delete tallies: a
 * version's change of count is the rows that came alive at it (a revision that is not a tombstone
 * starts there) less the rows that stopped being alive at it (a revision that is not a tombstone ends
 * there). An update ends one live revision and starts another; a delete ends a live one and starts a
 * tombstone; a restore that revives a row ends a tombstone and starts a live one. A running sum of those
 * changes over the versions is the count at each; two grouped passes over the revisions, on their
 * version_from and version_to indexes, and one over the versions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE dataset_versions ADD COLUMN row_count integer NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE datasets ADD COLUMN row_count integer NOT NULL DEFAULT 0`.execute(db);
  await sql`
    WITH started AS (
      SELECT dataset_id, version_from AS version, count(*) AS n
      FROM row_revisions WHERE NOT deleted GROUP BY dataset_id, version_from
    ), ended AS (
      SELECT dataset_id, version_to AS version, count(*) AS n
      FROM row_revisions WHERE NOT deleted AND version_to IS NOT NULL GROUP BY dataset_id, version_to
    ), counted AS (
      SELECT v.id,
             sum(coalesce(s.n, 0) - coalesce(e.n, 0))
               OVER (PARTITION BY v.dataset_id ORDER BY v.version) AS row_count
      FROM dataset_versions v
      LEFT JOIN started s ON s.dataset_id = v.dataset_id AND s.version = v.version
      LEFT JOIN ended e ON e.dataset_id = v.dataset_id AND e.version = v.version
    )
    UPDATE dataset_versions v SET row_count = c.row_count::int
    FROM counted c WHERE v.id = c.id AND c.row_count <> 0`.execute(db);
  await sql`
    UPDATE datasets d SET row_count = v.row_count
    FROM dataset_versions v
    WHERE v.dataset_id = d.id AND v.version = d.current_version AND v.row_count <> 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE datasets DROP COLUMN IF EXISTS row_count`.execute(db);
  await sql`ALTER TABLE dataset_versions DROP COLUMN IF EXISTS row_count`.execute(db);
}
