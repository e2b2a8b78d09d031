import { randomBytes } from "node:crypto";
import { newId, type RequestContext } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * An organisation with one project (slug `bench`), written directly, and the context of its owner's
 * key: what a benchmark that calls the services' use-cases on an in-process bus calls them as.
 */
export async function seedOrganization(
  db: Kysely<Database>,
): Promise<{ organizationId: string; projectId: string; context: RequestContext }> {
  const organizationId = newId();
  const projectId = newId();
  await db
    .insertInto("organizations")
    .values({ id: organizationId, name: "bench", slug: `bench-${randomBytes(3).toString("hex")}` })
    .execute();
  await db
    .insertInto("projects")
    .values({ id: projectId, organization_id: organizationId, slug: "bench", name: "bench" })
    .execute();
  const context: RequestContext = {
    organizationId,
    role: "owner",
    actor: { kind: "apiKey", id: newId() },
    requestId: "bench",
  };
  return { organizationId, projectId, context };
}

/**
 * Creates `count` datasets of `rows` rows each directly in the database, each at version 1, exactly
 * as the writer would have left them (columns, rows, live revisions, a version record). Loading this
 * way keeps the set-up of a million rows to seconds; nothing measured goes through it.
 */
export async function seedDatasets(
  db: Kysely<Database>,
  options: {
    organizationId: string;
    projectId: string;
    idPrefix: string;
    slugPrefix: string;
    count: number;
    rows: number;
  },
): Promise<void> {
  const { organizationId, projectId, idPrefix, slugPrefix, count, rows } = options;
  await sql`
    INSERT INTO datasets (id, organization_id, project_id, slug, name, current_version, row_count)
    SELECT ${idPrefix} || n, ${organizationId}, ${projectId}, ${slugPrefix} || n, ${slugPrefix} || n, 1, ${rows}
    FROM generate_series(1, ${count}) AS n`.execute(db);
  await sql`
    INSERT INTO dataset_columns (dataset_id, identifier, name, kind, field, position)
    SELECT ${idPrefix} || n, f.field, f.field, 'builtin', f.field, f.position
    FROM generate_series(1, ${count}) AS n,
         (VALUES ('input', 0), ('output', 1), ('expectedOutput', 2), ('metadata', 3)) AS f(field, position)`.execute(
    db,
  );
  await sql`
    INSERT INTO dataset_rows (dataset_id, row_id, input, output, expected_output, metadata, custom, created_at, version)
    SELECT ${idPrefix} || n, 'r' || i, jsonb_build_object('question', 'What is ' || i || ' + 1?'),
           to_jsonb('answer ' || i), 'null'::jsonb, jsonb_build_object('source', 'bench'), '{}'::jsonb,
           date_trunc('milliseconds', now()) + make_interval(secs => i / 1000.0), 1
    FROM generate_series(1, ${count}) AS n, generate_series(0, ${rows - 1}) AS i`.execute(db);
  await sql`
    INSERT INTO row_revisions (dataset_id, row_id, version_from, deleted, input, output, expected_output, metadata, custom, created_at)
    SELECT dataset_id, row_id, 1, false, input, output, expected_output, metadata, custom, created_at
    FROM dataset_rows WHERE dataset_id LIKE ${`${idPrefix}%`}`.execute(db);
  await sql`
    INSERT INTO dataset_versions (id, dataset_id, version, operation, rows_inserted, rows_updated, rows_deleted, row_count, actor_kind, actor_id)
    SELECT ${idPrefix} || 'v' || n, ${idPrefix} || n, 1, 'import', ${rows}, 0, 0, ${rows}, 'apiKey', 'bench'
    FROM generate_series(1, ${count}) AS n`.execute(db);
}

/**
 * Gives a dataset `versions` more versions, each an edit of a different row, as if that many edits
 * had been made: the history an edit must not slow down for.
 */
export async function seedHistory(db: Kysely<Database>, datasetId: string, versions: number): Promise<void> {
  await sql`
    UPDATE row_revisions SET version_to = 1 + i.n
    FROM generate_series(1, ${versions}) AS i(n)
    WHERE dataset_id = ${datasetId} AND row_id = 'r' || (i.n - 1) AND version_to IS NULL`.execute(db);
  await sql`
    UPDATE dataset_rows SET expected_output = jsonb_build_object('seeded', true), version = 1 + i.n
    FROM generate_series(1, ${versions}) AS i(n)
    WHERE dataset_id = ${datasetId} AND row_id = 'r' || (i.n - 1)`.execute(db);
  await sql`
    INSERT INTO row_revisions (dataset_id, row_id, version_from, deleted, input, output, expected_output, metadata, custom, created_at)
    SELECT dataset_id, row_id, version, false, input, output, expected_output, metadata, custom, created_at
    FROM dataset_rows WHERE dataset_id = ${datasetId} AND version > 1`.execute(db);
  await sql`
    INSERT INTO dataset_versions (id, dataset_id, version, operation, rows_inserted, rows_updated, rows_deleted, row_count, actor_kind, actor_id)
    SELECT ${datasetId} || 'v' || (1 + n), ${datasetId}, 1 + n, 'update', 0, 1, 0,
           (SELECT row_count FROM datasets WHERE id = ${datasetId}), 'apiKey', 'bench'
    FROM generate_series(1, ${versions}) AS n`.execute(db);
  await sql`UPDATE datasets SET current_version = ${1 + versions} WHERE id = ${datasetId}`.execute(db);
}

/**
 * Gives a dataset `versions` more versions, each an edit of one of its first `rows` rows in turn: a
 * long history that changes few rows, so that two versions far apart differ in just those rows.
 */
export async function seedCyclingHistory(
  db: Kysely<Database>,
  datasetId: string,
  versions: number,
  rows: number,
): Promise<void> {
  const last = 1 + versions;
  // Version 1 + n edits row r((n - 1) % rows); a row's revision lasts until its next edit.
  await sql`
    UPDATE row_revisions SET version_to = 2 + substr(row_id, 2)::int
    WHERE dataset_id = ${datasetId} AND version_from = 1 AND substr(row_id, 2)::int < ${rows}
      AND row_id ~ '^r[0-9]+$'`.execute(db);
  await sql`
    INSERT INTO row_revisions (dataset_id, row_id, version_from, version_to, deleted, input, output, expected_output, metadata, custom, created_at)
    SELECT r.dataset_id, r.row_id, 1 + n, CASE WHEN 1 + n + ${rows} <= ${last} THEN 1 + n + ${rows} END, false,
           r.input, r.output, jsonb_build_object('edit', n), r.metadata, r.custom, r.created_at
    FROM generate_series(1, ${versions}) AS n
    JOIN dataset_rows r ON r.dataset_id = ${datasetId} AND r.row_id = 'r' || ((n - 1) % ${rows})`.execute(db);
  await sql`
    UPDATE dataset_rows d SET expected_output = v.expected_output, version = v.version_from
    FROM row_revisions v
    WHERE d.dataset_id = ${datasetId} AND v.dataset_id = d.dataset_id AND v.row_id = d.row_id
      AND v.version_from > 1 AND v.version_to IS NULL`.execute(db);
  await sql`
    INSERT INTO dataset_versions (id, dataset_id, version, operation, rows_inserted, rows_updated, rows_deleted, row_count, actor_kind, actor_id)
    SELECT ${datasetId} || 'v' || (1 + n), ${datasetId}, 1 + n, 'update', 0, 1, 0,
           (SELECT row_count FROM datasets WHERE id = ${datasetId}), 'apiKey', 'bench'
    FROM generate_series(1, ${versions}) AS n`.execute(db);
  await sql`UPDATE datasets SET current_version = ${last} WHERE id = ${datasetId}`.execute(db);
  await sql`ANALYZE row_revisions`.execute(db);
}
