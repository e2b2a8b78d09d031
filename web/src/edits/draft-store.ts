import type { EditSession } from "./edit-session";

/**
 * Where edit sessions are kept between visits: IndexedDB, whose quota is a share of the disk, where
 * local storage holds a few megabytes for the whole site and one large paste used to exceed it. A
 * session is stored as it is (a structured clone), under the key `storageKey` gives. A few lines of
 * plain IndexedDB rather than a wrapper: one object store, get, put and delete (docs/decisions/0014).
 */
const DATABASE = "svc";
const STORE = "edit-sessions";

let opened: Promise<IDBDatabase> | undefined;

function database(): Promise<IDBDatabase> {
  if (opened) return opened;
  const opening = new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => {
      const db = request.result;
      // Another tab upgrading the database, or the browser closing it: open it again next time.
      db.onversionchange = () => {
        db.close();
        opened = undefined;
      };
      db.onclose = () => {
        opened = undefined;
      };
      resolve(db);
    };
    request.onerror = () => reject(request.error);
    request.onblocked = () =>
      reject(new DOMException("The draft store is blocked by another tab", "Blocked"));
  });
  opened = opening;
  // A failure is not remembered: the next write tries again (space may have been freed meanwhile).
  opening.catch(() => {
    if (opened === opening) opened = undefined;
  });
  return opening;
}

async function inStore(
  mode: IDBTransactionMode,
  act: (store: IDBObjectStore) => IDBRequest,
): Promise<unknown> {
  const db = await database();
  return new Promise<unknown>((resolve, reject) => {
    const transaction = db.transaction(STORE, mode);
    const request = act(transaction.objectStore(STORE));
    // Resolved once the transaction has committed, not when the request succeeds: a quota error
    // aborts the transaction after the request.
    transaction.oncomplete = () => resolve(request.result);
    transaction.onabort = () => reject(transaction.error ?? request.error);
    transaction.onerror = () => reject(transaction.error ?? request.error);
  });
}

/** The stored session under `key`, or undefined when there is none. */
export async function loadSession(key: string): Promise<EditSession | undefined> {
  const value = await inStore("readonly", (store) => store.get(key));
  return Array.isArray(value) ? (value as EditSession) : undefined;
}

/** Stores the session under `key`; an empty session removes it. Rejects with the browser's reason. */
export async function storeSession(key: string, session: EditSession): Promise<void> {
  await inStore("readwrite", (store) => (session.length === 0 ? store.delete(key) : store.put(session, key)));
}

/**
 * A session kept in local storage by an earlier version of the page, taken out once it is stored here.
 */
export function legacySession(key: string): { session: EditSession; forget(): void } | undefined {
  try {
    const text = localStorage.getItem(key);
    if (text === null) return undefined;
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return undefined;
    return { session: value as EditSession, forget: () => localStorage.removeItem(key) };
  } catch {
    return undefined;
  }
}
