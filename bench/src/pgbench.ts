import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The SQL of one row edit, one transaction per edit, exactly as the writer would run a lone edit:
 * take the next version under the dataset's row lock, change the row, end its live revision, start
 * the new one, and record the version.
 */
function editScript(datasets: number, rows: number, prefix: string): string {
  return `\\set d random(1, ${datasets})
\\set r random(0, ${rows - 1})
BEGIN;
UPDATE datasets SET current_version = current_version + 1, updated_at = now() WHERE id = '${prefix}' || :d RETURNING current_version AS v \\gset
UPDATE dataset_rows SET expected_output = '{"answer": 4}'::jsonb, version = :v WHERE dataset_id = '${prefix}' || :d AND row_id = 'r' || :r;
UPDATE row_revisions SET version_to = :v WHERE dataset_id = '${prefix}' || :d AND row_id = 'r' || :r AND version_to IS NULL;
INSERT INTO row_revisions (dataset_id, row_id, version_from, deleted, input, output, expected_output, metadata, custom, created_at)
  SELECT dataset_id, row_id, :v, false, input, output, expected_output, metadata, custom, created_at
  FROM dataset_rows WHERE dataset_id = '${prefix}' || :d AND row_id = 'r' || :r;
INSERT INTO dataset_versions (id, dataset_id, version, operation, rows_inserted, rows_updated, rows_deleted, row_count, actor_kind, actor_id)
  SELECT substr(md5(random()::text), 1, 24), id, :v, 'update', 0, 1, 0, row_count, 'apiKey', 'pgbench'
  FROM datasets WHERE id = '${prefix}' || :d;
END;
`;
}

/** Runs pgbench with the edit script and returns transactions (edits) per second. */
export function pgbenchEdits(options: {
  databaseUrl: string;
  datasets: number;
  rows: number;
  prefix: string;
  clients: number;
  seconds: number;
}): number {
  const dir = mkdtempSync(join(tmpdir(), "svc-pgbench-"));
  const script = join(dir, "edit.sql");
  writeFileSync(script, editScript(options.datasets, options.rows, options.prefix));
  const result = spawnSync(
    "pgbench",
    [
      "-n",
      "-c",
      String(options.clients),
      "-j",
      "2",
      "-T",
      String(options.seconds),
      "-f",
      script,
      options.databaseUrl,
    ],
    { encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(`pgbench failed: ${result.stderr}`);
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(result.stdout);
  if (!tps?.[1]) throw new Error(`pgbench printed no rate:\n${result.stdout}`);
  const failed = /number of failed transactions: (\d+)/.exec(result.stdout);
  if (failed?.[1] && Number(failed[1]) > 0) throw new Error(`pgbench had ${failed[1]} failed transactions`);
  return Number(tps[1]);
}
