import pg from "pg";

/**
 * A change the platform acknowledged (answered 2xx with a version): that version must exist, with this
 * id when one is given; when it names a row, the row's revision from that version must exist, and
 * hold `expectedOutput` when one is given.
 */
export interface AcknowledgedChange {
  datasetId: string;
  version: number;
  versionId?: string | undefined;
  rowId?: string | undefined;
  expectedOutput?: unknown;
}

/**
 * The audit every fault test and the overload benchmark end with, as one query straight on the
 * database: every dataset's versions are exactly 1..current_version with no gap or repeat, each live row has one current
 * revision matching its cells, and every acknowledged change is there. Throws naming what is wrong.
 */
export async function auditVersions(
  databaseUrl: string,
  acknowledged: readonly AcknowledgedChange[] = [],
): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const problems = await db.query<{ problem: string; detail: unknown }>(
      `WITH acknowledged AS (
         SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[])
           AS a(dataset_id, version, version_id, row_id, expected_output)
       ),
       gaps AS (
         SELECT d.id, d.current_version, count(v.version)::int AS versions,
                coalesce(min(v.version), 0) AS first, coalesce(max(v.version), 0) AS last,
                count(DISTINCT v.version)::int AS distinct_versions
         FROM datasets d LEFT JOIN dataset_versions v ON v.dataset_id = d.id
         GROUP BY d.id, d.current_version
         HAVING count(v.version) <> d.current_version
             OR count(DISTINCT v.version) <> d.current_version
             OR coalesce(max(v.version), 0) <> d.current_version
             OR (d.current_version > 0 AND min(v.version) <> 1)
         LIMIT 5
       ),
       drift AS (
         SELECT r.dataset_id, r.row_id FROM dataset_rows r
         LEFT JOIN row_revisions v
           ON v.dataset_id = r.dataset_id AND v.row_id = r.row_id AND v.version_to IS NULL
         WHERE v.row_id IS NULL OR v.deleted OR v.version_from <> r.version OR v.custom <> r.custom
            OR v.expected_output IS DISTINCT FROM r.expected_output
         LIMIT 5
       ),
       missing AS (
         SELECT a.*, v.id AS stored_version_id, r.expected_output AS stored_expected_output
         FROM acknowledged a
         LEFT JOIN dataset_versions v ON v.dataset_id = a.dataset_id AND v.version = a.version
         LEFT JOIN row_revisions r
           ON r.dataset_id = a.dataset_id AND r.row_id = a.row_id AND r.version_from = a.version
         WHERE v.id IS NULL
            OR v.id <> coalesce(a.version_id, v.id)
            OR (a.row_id IS NOT NULL AND (r.row_id IS NULL OR r.deleted
                OR r.expected_output IS DISTINCT FROM coalesce(a.expected_output::jsonb, r.expected_output)))
         LIMIT 5
       )
       SELECT 'version gaps or duplicates' AS problem, to_jsonb(g) AS detail FROM gaps g
       UNION ALL SELECT 'rows out of step with their revisions', to_jsonb(d) FROM drift d
       UNION ALL SELECT 'acknowledged changes missing', to_jsonb(m) FROM missing m`,
      [
        acknowledged.map((c) => c.datasetId),
        acknowledged.map((c) => c.version),
        acknowledged.map((c) => c.versionId ?? null),
        acknowledged.map((c) => c.rowId ?? null),
        acknowledged.map((c) => (c.expectedOutput === undefined ? null : JSON.stringify(c.expectedOutput))),
      ],
    );
    if (problems.rows.length > 0) {
      throw new Error(problems.rows.map((row) => `${row.problem}: ${JSON.stringify(row.detail)}`).join("\n"));
    }
  } finally {
    await db.end();
  }
}
