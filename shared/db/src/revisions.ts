import type { Kysely } from "kysely";
import type { Database } from "./schema";

/**
 * Ends the live revisions of the given rows at `version`: from then on each row reads as it was until
 * `version - 1`, and a new revision (or none, for a deleted row) takes over.
 */
export async function closeRevisions(
  db: Kysely<Database>,
  datasetId: string,
  rowIds: readonly string[],
  version: number,
): Promise<void> {
  if (rowIds.length === 0) return;
  await db
    .updateTable("row_revisions")
    .set({ version_to: version })
    .where("dataset_id", "=", datasetId)
    .where("row_id", "in", rowIds)
    .where("version_to", "is", null)
    .execute();
}

/**
 * The revisions valid at `version` (the rows as they were then, deleted ones left out), as `r`: what
 * "the dataset at version N" means, for every reader of a past version (the reader's lists and
 * exports, an experiment's pinned rows).
 */
export function revisionsAt(db: Kysely<Database>, datasetId: string, version: number) {
  return db
    .selectFrom("row_revisions as r")
    .where("r.dataset_id", "=", datasetId)
    .where("r.version_from", "<=", version)
    .where((eb) => eb.or([eb("r.version_to", "is", null), eb("r.version_to", ">", version)]))
    .where("r.deleted", "=", false);
}
