import { useCallback, useSyncExternalStore } from "react";
import { legacyDrafts, loadDrafts, storeDrafts } from "./draft-store";
import type { Drafts } from "./drafts";

/**
 * A dataset's drafts as this tab holds them. Memory is the truth while the page is open; the
 * draft store keeps a copy for the next visit, written after each change (the latest one only, when
 * changes come faster than the browser stores them). When the browser refuses to store it, the edits
 * stay here and `unstored` says why, so that the page can tell the person.
 */
export interface HeldDrafts {
  drafts: Drafts;
  /** False until the stored drafts have been read: nothing should be edited before. */
  loaded: boolean;
  /** Why the browser did not keep the latest change for the next visit; undefined once it did. */
  unstored: string | undefined;
}

const held = new Map<string, HeldDrafts>();
/** Changes asked for while the stored drafts were being read, applied to them once read. */
const early = new Map<string, ((drafts: Drafts) => Drafts)[]>();
const writes = new Map<string, { busy: boolean; next: Drafts | undefined }>();
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

function set(key: string, next: HeldDrafts): void {
  held.set(key, next);
  notify();
}

// Other tabs of the same dataset say when they stored a change: read it again.
const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("svc:edits") : undefined;
channel?.addEventListener("message", (event: MessageEvent<{ key?: unknown }>) => {
  const key = event.data.key;
  if (typeof key !== "string" || !held.has(key) || writes.get(key)?.busy) return;
  loadDrafts(key).then(
    (drafts) => {
      const current = held.get(key);
      if (current?.loaded) set(key, { ...current, drafts: drafts ?? [] });
    },
    () => undefined,
  );
});

function read(key: string): HeldDrafts {
  const current = held.get(key);
  if (current) return current;
  const loading: HeldDrafts = { drafts: [], loaded: false, unstored: undefined };
  held.set(key, loading);
  void load(key);
  return loading;
}

async function load(key: string): Promise<void> {
  let drafts: Drafts;
  let unstored: string | undefined;
  const legacy = legacyDrafts(key);
  try {
    drafts = (await loadDrafts(key)) ?? legacy?.drafts ?? [];
  } catch (error) {
    drafts = legacy?.drafts ?? [];
    unstored = reasonOf(error);
  }
  const changes = early.get(key) ?? [];
  early.delete(key);
  const next = changes.reduce((current, change) => change(current), drafts);
  set(key, { drafts: next, loaded: true, unstored });
  if (legacy || next !== drafts) persist(key, next, legacy?.forget);
}

/** Stores the drafts, one write at a time per key: a write waiting is replaced by a newer one. */
function persist(key: string, drafts: Drafts, afterwards?: () => void): void {
  const queue = writes.get(key) ?? { busy: false, next: undefined };
  writes.set(key, queue);
  queue.next = drafts;
  if (queue.busy) return;
  queue.busy = true;
  void (async () => {
    while (queue.next !== undefined) {
      const next = queue.next;
      queue.next = undefined;
      let unstored: string | undefined;
      try {
        await storeDrafts(key, next);
        afterwards?.();
      } catch (error) {
        unstored = reasonOf(error);
      }
      const current = held.get(key);
      if (current && current.unstored !== unstored) set(key, { ...current, unstored });
    }
    queue.busy = false;
    channel?.postMessage({ key });
  })();
}

/** Why the browser refused to store the drafts, in words for the person. */
function reasonOf(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : "";
  return name === "QuotaExceededError"
    ? "the browser's storage for this site is full"
    : "this browser does not let the site store data";
}

/** The dataset's drafts in this browser, and a way to change them that every reader sees. */
export function useDrafts(key: string) {
  const current = useSyncExternalStore(
    useCallback((listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    }, []),
    () => read(key),
  );
  const update = useCallback(
    (change: (drafts: Drafts) => Drafts) => {
      const now = read(key);
      if (!now.loaded) {
        early.set(key, [...(early.get(key) ?? []), change]);
        return;
      }
      const next = change(now.drafts);
      if (next === now.drafts) return;
      set(key, { ...now, drafts: next });
      persist(key, next);
    },
    [key],
  );
  return { ...current, update };
}
