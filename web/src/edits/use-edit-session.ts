import { useCallback, useSyncExternalStore } from "react";
import { type EditSession, readSession, writeSession } from "./edit-session";

/** One parsed session per storage key, so that every component reads the same array. */
const cache = new Map<string, EditSession>();
const listeners = new Set<() => void>();

function read(key: string): EditSession {
  let session = cache.get(key);
  if (session === undefined) {
    session = readSession(key);
    cache.set(key, session);
  }
  return session;
}

function notify(): void {
  for (const listener of listeners) listener();
}

// Another tab of the same dataset changed the session: read it again.
if (typeof addEventListener === "function") {
  addEventListener("storage", (event) => {
    if (event.key === null || cache.has(event.key)) {
      if (event.key === null) cache.clear();
      else cache.delete(event.key);
      notify();
    }
  });
}

/** The dataset's edit session in this browser, and a way to change it that every reader sees. */
export function useEditSession(key: string) {
  const session = useSyncExternalStore(
    useCallback((listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    }, []),
    () => read(key),
  );
  const update = useCallback(
    (change: (session: EditSession) => EditSession) => {
      const current = read(key);
      const next = change(current);
      if (next === current) return;
      cache.set(key, next);
      writeSession(key, next);
      notify();
    },
    [key],
  );
  return { session, update };
}
