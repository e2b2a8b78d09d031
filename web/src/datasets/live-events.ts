import type { Dataset, DatasetVersionEvent } from "@svc/sdk";

/** The parts of an event the page acts on; anything else in a message is ignored. */
export function parseVersionEvent(data: string): DatasetVersionEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  const event = value as Partial<DatasetVersionEvent>;
  if (!Number.isInteger(event.version) || !Array.isArray(event.rowIds)) return undefined;
  return value as DatasetVersionEvent;
}

/** The dataset as the page holds it, at the newest version heard of (never going back). */
export function withVersion<T extends Pick<Dataset, "version">>(dataset: T | undefined, version: number) {
  return dataset && version > dataset.version ? { ...dataset, version } : dataset;
}

/**
 * Whether a new version calls for reading the loaded rows again. A pinned old version shows what it
 * shows, whatever comes after. On the current one: a version that adds or removes rows, names more
 * rows than it lists, or names none (a change of the columns) moves the list; one that edits rows
 * matters when one of them is loaded. One read of the pages brings all of it.
 */
export function rowsToRefresh(
  event: DatasetVersionEvent,
  pinned: boolean,
  isLoaded: (rowId: string) => boolean,
): boolean {
  if (pinned) return false;
  if (event.rowIdsTruncated || event.rowsInserted > 0 || event.rowsDeleted > 0) return true;
  if (event.rowIds.length === 0) return true;
  return event.rowIds.some(isLoaded);
}

/** The last version that changed each row, as the events name them. */
export type RowChanges = ReadonlyMap<string, DatasetVersionEvent>;

export function withRowChanges(changes: RowChanges, event: DatasetVersionEvent): RowChanges {
  if (event.rowIds.length === 0) return changes;
  const next = new Map(changes);
  for (const rowId of event.rowIds) {
    const known = next.get(rowId);
    if (!known || known.version < event.version) next.set(rowId, event);
  }
  return next;
}

/**
 * Whether an open editor should warn about its row's last change: a version newer than the one its
 * draft started from, which this page did not write itself, while there are edits it would overwrite.
 */
export function changedUnderDraft(
  change: { version: number } | undefined,
  draft: { baseVersion: number; edited: boolean },
  ownVersions: ReadonlySet<number>,
): boolean {
  return (
    change !== undefined &&
    draft.edited &&
    change.version > draft.baseVersion &&
    !ownVersions.has(change.version)
  );
}

/** How long before a stream the server refused or ended for good is opened again, by attempt. */
export function reopenDelay(attempt: number): number {
  return Math.min(30_000, 1_000 * 2 ** Math.min(attempt, 5));
}
