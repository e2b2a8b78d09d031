import type { Import } from "@svc/contracts";
import { sql } from "kysely";
import type { Db } from "./db";

/** An import of a dataset, as a client polls it. */
export async function findImport(db: Db, datasetId: string, importId: string): Promise<Import | undefined> {
  const row = await db
    .selectFrom("imports")
    .select([
      "id",
      "state",
      "format",
      "mode",
      sql<string>`bytes_read::text`.as("bytes_read"),
      sql<string>`rows_read::text`.as("rows_read"),
      "created_at",
      "finished_at",
      "version_id",
      "version",
      "rows_inserted",
      "rows_updated",
      "error",
    ])
    .where("dataset_id", "=", datasetId)
    .where("id", "=", importId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    importId: row.id,
    state: row.state as Import["state"],
    format: row.format as Import["format"],
    mode: row.mode as Import["mode"],
    bytesRead: Number(row.bytes_read),
    rowsRead: Number(row.rows_read),
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    ...(row.state === "succeeded"
      ? {
          versionId: row.version_id,
          version: row.version ?? 0,
          rowsInserted: row.rows_inserted ?? 0,
          rowsUpdated: row.rows_updated ?? 0,
        }
      : {}),
    ...(row.error ? { error: row.error as NonNullable<Import["error"]> } : {}),
  };
}
