import pg from "pg";

/**
 * Proves the version invariants straight from the database: for every dataset, versions are
 * exactly 1..current_version with no gap or duplicate, and each live row has one current revision
 * matching its cells.
 */
export async function auditVersions(databaseUrl: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const gaps = await db.query(`
      SELECT d.id, d.current_version, count(v.version)::int AS versions,
             coalesce(min(v.version), 0) AS first, coalesce(max(v.version), 0) AS last,
             count(DISTINCT v.version)::int AS distinct_versions
      FROM datasets d LEFT JOIN dataset_versions v ON v.dataset_id = d.id
      GROUP BY d.id, d.current_version
      HAVING count(v.version) <> d.current_version
          OR count(DISTINCT v.version) <> d.current_version
          OR coalesce(max(v.version), 0) <> d.current_version
          OR (d.current_version > 0 AND min(v.version) <> 1)`);
    if (gaps.rows.length > 0) throw new Error(`version gaps or duplicates: ${JSON.stringify(gaps.rows)}`);
    const drift = await db.query(`
      SELECT r.dataset_id, r.row_id FROM dataset_rows r
      LEFT JOIN row_revisions v ON v.dataset_id = r.dataset_id AND v.row_id = r.row_id AND v.version_to IS NULL
      WHERE v.row_id IS NULL OR v.deleted OR v.version_from <> r.version OR v.custom <> r.custom
         OR v.expected_output IS DISTINCT FROM r.expected_output
      LIMIT 5`);
    if (drift.rows.length > 0)
      throw new Error(`rows out of step with their revisions: ${JSON.stringify(drift.rows)}`);
  } finally {
    await db.end();
  }
}
