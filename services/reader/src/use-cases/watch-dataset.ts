import {
  type DatasetEventsPage,
  type DatasetVersionEvent,
  DomainError,
  datasetEventsRequestSchema,
  MAX_EVENT_ROW_IDS,
  validationError,
} from "@svc/contracts";
import { type Database, datasetNotFound, findDataset } from "@svc/db";
import type { Kysely } from "kysely";
import { listVersionsAfter } from "../repositories/versions";

/**
 * A page of a dataset's versions after `after`, oldest first, as live-change events: what a stream
 * replays after a reconnect, and what every stream of a gateway is sent when a version is announced.
 * Without `after`, no events: the dataset and its current version, where a new stream starts.
 */
export async function watchDataset(
  db: Kysely<Database>,
  organizationId: string,
  input: unknown,
): Promise<DatasetEventsPage> {
  const parsed = datasetEventsRequestSchema.safeParse(input);
  if (!parsed.success) throw validationError(parsed.error.issues, [], "Events request");
  const { params, datasetId, after, limit } = parsed.data;
  const ref = { organizationId, ...params };
  const dataset = await findDataset(db, ref);
  // The same slugs, another dataset: the one the stream followed was deleted.
  if (datasetId !== undefined && dataset.id !== datasetId) throw datasetNotFound(ref);
  const page = { datasetId: dataset.id, version: dataset.version };
  if (after === undefined) return { ...page, events: [] };
  if (after > dataset.version) throw beyondCurrent(after, dataset.version);
  const versions = await listVersionsAfter(db, {
    datasetId: dataset.id,
    after,
    limit,
    maxRowIds: MAX_EVENT_ROW_IDS,
  });
  return { ...page, events: versions.map(({ version, rowIds }) => eventOf(version, rowIds)) };
}

function eventOf(
  version: Omit<DatasetVersionEvent, "rowIds" | "rowIdsTruncated">,
  rowIds: string[],
): DatasetVersionEvent {
  const changed = version.rowsInserted + version.rowsUpdated + version.rowsDeleted;
  const truncated = rowIds.length > MAX_EVENT_ROW_IDS || changed > MAX_EVENT_ROW_IDS;
  return {
    version: version.version,
    versionId: version.versionId,
    createdAt: version.createdAt,
    operation: version.operation,
    actor: version.actor,
    rowsInserted: version.rowsInserted,
    rowsUpdated: version.rowsUpdated,
    rowsDeleted: version.rowsDeleted,
    rowIds: truncated ? rowIds.slice(0, MAX_EVENT_ROW_IDS) : rowIds,
    rowIdsTruncated: truncated,
  };
}

const beyondCurrent = (after: number, current: number) =>
  new DomainError(
    "validation_failed",
    `Last-Event-ID ${after} is beyond the dataset's current version ${current}; resume from a version you received, or leave it out to start with the next version`,
    {
      issues: [{ path: "header.Last-Event-ID", message: `must be at most ${current}`, code: "too_big" }],
    },
  );
