import { openDatabase } from "@svc/db";
import type { AcknowledgedChange } from "@svc/testing/audit";
import pg from "pg";
import type { AcknowledgedEdit } from "./edit-load";

export { type AcknowledgedChange, auditVersions } from "@svc/testing/audit";

/** An edit load's acknowledged edits: each set its row's expected output to `{value}`. */
export const changesOfEdits = (edits: readonly AcknowledgedEdit[]): AcknowledgedChange[] =>
  edits.map(({ datasetId, rowId, versionId, version, value }) => ({
    datasetId,
    rowId,
    versionId,
    version,
    expectedOutput: { value },
  }));

/** How many revisions of the load's rows hold each value an edit set: 1 for an edit applied once. */
export async function revisionsByValue(databaseUrl: string): Promise<Map<number, number>> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ value: number; revisions: number }>(
      `SELECT (expected_output->>'value')::int AS value, count(*)::int AS revisions
       FROM row_revisions WHERE expected_output ? 'value' GROUP BY 1`,
    );
    return new Map(rows.map((row) => [row.value, row.revisions]));
  } finally {
    await db.end();
  }
}

/** A dataset's rows and version as stored. */
export async function storedRows(databaseUrl: string, datasetId: string) {
  const handle = await openDatabase({ url: databaseUrl, poolSize: 1 });
  try {
    const rows = await handle.db
      .selectFrom("dataset_rows")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("dataset_id", "=", datasetId)
      .executeTakeFirstOrThrow();
    const dataset = await handle.db
      .selectFrom("datasets")
      .select("current_version")
      .where("id", "=", datasetId)
      .executeTakeFirstOrThrow();
    return { rows: Number(rows.n), version: dataset.current_version };
  } finally {
    await handle.close();
  }
}
