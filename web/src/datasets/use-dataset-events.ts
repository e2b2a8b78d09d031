import type { DatasetVersionEvent } from "@svc/sdk";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "../api";
import { rowKey, rowsKey } from "../rows/queries";
import {
  parseVersionEvent,
  type RowChanges,
  reopenDelay,
  rowsToRefresh,
  withRowChanges,
  withVersion,
} from "./live-events";
import { datasetQuery } from "./queries";

/**
 * The dataset's live changes (`GET …/events`), from the version the page has: each new version once,
 * in order. The browser's EventSource reconnects by itself with Last-Event-ID when the server ends the
 * stream; one it gave up on (a refusal: 429, a platform away) is opened again later from the last
 * version heard. Closed when the page goes. An EventSource does not say why it was refused, so a refusal
 * asks who is signed in: a session that ended (a member removed, a key revoked) signs the page out at once.
 */
export function useDatasetEvents(
  projectSlug: string,
  datasetSlug: string,
  since: number | undefined,
  onEvent: (event: DatasetVersionEvent) => void,
): void {
  const handler = useRef(onEvent);
  const start = useRef(since);
  useEffect(() => {
    handler.current = onEvent;
    start.current = since;
  });
  const known = since !== undefined;

  useEffect(() => {
    if (!known) return;
    let last = start.current;
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    const path = `/v1/projects/${encodeURIComponent(projectSlug)}/datasets/${encodeURIComponent(datasetSlug)}/events`;
    const open = () => {
      source = new EventSource(last === undefined ? path : `${path}?since=${last}`, {
        withCredentials: true,
      });
      source.addEventListener("open", () => {
        attempt = 0;
      });
      source.addEventListener("version", (message) => {
        const event = parseVersionEvent(message.data);
        if (!event || (last !== undefined && event.version <= last)) return;
        last = event.version;
        handler.current(event);
      });
      source.addEventListener("error", () => {
        if (source?.readyState !== EventSource.CLOSED) return;
        // A 401 here ends the page's session (see api.ts); any other failure is the reopen's to retry.
        api.account.get().catch(() => undefined);
        timer = setTimeout(open, reopenDelay(attempt++));
      });
    };
    open();
    return () => {
      clearTimeout(timer);
      source?.close();
    };
  }, [projectSlug, datasetSlug, known]);
}

/**
 * The dataset page following its dataset: the header's version at once, the loaded rows read again
 * (kept on screen while they are, so nothing jumps), and the last change of each row named, for the
 * editor. Over a pinned version only the "newer version" state moves.
 */
export function useFollowDataset(
  projectSlug: string,
  datasetSlug: string,
  {
    pinned,
    since,
    isLoaded,
  }: { pinned: boolean; since: number | undefined; isLoaded(rowId: string): boolean },
): RowChanges {
  const queryClient = useQueryClient();
  const [changes, setChanges] = useState<RowChanges>(() => new Map());
  // Events in a burst (a bulk edit, a replay after a reconnect) lead to one read, not one each.
  const pending = useRef<{ rows: boolean; timer: ReturnType<typeof setTimeout> | undefined }>({
    rows: false,
    timer: undefined,
  });
  useEffect(() => () => clearTimeout(pending.current.timer), []);

  const onEvent = useCallback(
    (event: DatasetVersionEvent) => {
      const datasetKey = datasetQuery(projectSlug, datasetSlug).queryKey;
      queryClient.setQueryData(datasetKey, (current) => withVersion(current, event.version));
      if (!pinned) setChanges((current) => withRowChanges(current, event));
      const batch = pending.current;
      batch.rows ||= rowsToRefresh(event, pinned, isLoaded);
      if (batch.timer !== undefined) return;
      batch.timer = setTimeout(() => {
        const rows = batch.rows;
        batch.rows = false;
        batch.timer = undefined;
        void queryClient.invalidateQueries({ queryKey: datasetKey });
        // Rows out of view are read again when they come back into it; those in view, at once when the
        // version touched them. A pinned version does not change.
        if (pinned) return;
        void queryClient.invalidateQueries({
          queryKey: rowsKey(projectSlug, datasetSlug),
          refetchType: rows ? "active" : "none",
        });
        if (!rows) return;
        void queryClient.invalidateQueries({ queryKey: rowKey(projectSlug, datasetSlug) });
      }, 100);
    },
    [queryClient, projectSlug, datasetSlug, pinned, isLoaded],
  );
  useDatasetEvents(projectSlug, datasetSlug, since, onEvent);
  return changes;
}
