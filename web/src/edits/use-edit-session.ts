import { useCallback, useSyncExternalStore } from "react";
import { legacySession, loadSession, storeSession } from "./draft-store";
import type { EditSession } from "./edit-session";

/**
 * A dataset's edit session as this tab holds it. Memory is the truth while the page is open; the
 * draft store keeps a copy for the next visit, written after each change (the latest one only, when
 * changes come faster than the browser stores them). When the browser refuses to store it, the edits
 * stay here and `unstored` says why, so that the page can tell the person.
 */
export interface HeldSession {
  session: EditSession;
  /** False until the stored session has been read: nothing should be edited before. */
  loaded: boolean;
  /** Why the browser did not keep the latest change for the next visit; undefined once it did. */
  unstored: string | undefined;
}

const held = new Map<string, HeldSession>();
/** Changes asked for while the stored session was being read, applied to it once read. */
const early = new Map<string, ((session: EditSession) => EditSession)[]>();
const writes = new Map<string, { busy: boolean; next: EditSession | undefined }>();
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

function set(key: string, next: HeldSession): void {
  held.set(key, next);
  notify();
}

// Other tabs of the same dataset say when they stored a change: read it again.
const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("svc:edits") : undefined;
channel?.addEventListener("message", (event: MessageEvent<{ key?: unknown }>) => {
  const key = event.data.key;
  if (typeof key !== "string" || !held.has(key) || writes.get(key)?.busy) return;
  loadSession(key).then(
    (session) => {
      const current = held.get(key);
      if (current?.loaded) set(key, { ...current, session: session ?? [] });
    },
    () => undefined,
  );
});

function read(key: string): HeldSession {
  const current = held.get(key);
  if (current) return current;
  const loading: HeldSession = { session: [], loaded: false, unstored: undefined };
  held.set(key, loading);
  void load(key);
  return loading;
}

async function load(key: string): Promise<void> {
  let session: EditSession;
  let unstored: string | undefined;
  const legacy = legacySession(key);
  try {
    session = (await loadSession(key)) ?? legacy?.session ?? [];
  } catch (error) {
    session = legacy?.session ?? [];
    unstored = reasonOf(error);
  }
  const changes = early.get(key) ?? [];
  early.delete(key);
  const next = changes.reduce((current, change) => change(current), session);
  set(key, { session: next, loaded: true, unstored });
  if (legacy || next !== session) persist(key, next, legacy?.forget);
}

/** Stores the session, one write at a time per key: a write waiting is replaced by a newer one. */
function persist(key: string, session: EditSession, afterwards?: () => void): void {
  const queue = writes.get(key) ?? { busy: false, next: undefined };
  writes.set(key, queue);
  queue.next = session;
  if (queue.busy) return;
  queue.busy = true;
  void (async () => {
    while (queue.next !== undefined) {
      const next = queue.next;
      queue.next = undefined;
      let unstored: string | undefined;
      try {
        await storeSession(key, next);
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

/** Why the browser refused to store a session, in words for the person. */
function reasonOf(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : "";
  return name === "QuotaExceededError"
    ? "the browser's storage for this site is full"
    : "this browser does not let the site store data";
}

/** The dataset's edit session in this browser, and a way to change it that every reader sees. */
export function useEditSession(key: string) {
  const current = useSyncExternalStore(
    useCallback((listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    }, []),
    () => read(key),
  );
  const update = useCallback(
    (change: (session: EditSession) => EditSession) => {
      const now = read(key);
      if (!now.loaded) {
        early.set(key, [...(early.get(key) ?? []), change]);
        return;
      }
      const next = change(now.session);
      if (next === now.session) return;
      set(key, { ...now, session: next });
      persist(key, next);
    },
    [key],
  );
  return { ...current, update };
}
