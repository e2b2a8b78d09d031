import type { Import } from "@svc/contracts";
import { sql } from "kysely";

/*
 * An import as clients see it, read from its row: the writer answers with it when an import starts,
 * the reader when a client polls it.
 */

/** The columns `toImport` needs. */
export const importColumns = [
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
] as const;

export type StoredImport = {
  id: string;
  state: string;
  format: string;
  mode: string;
  bytes_read: string;
  rows_read: string;
  created_at: Date;
  finished_at: Date | null;
  version_id: string | null;
  version: number | null;
  rows_inserted: number | null;
  rows_updated: number | null;
  error: unknown;
};

export function toImport(row: StoredImport): Import {
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
