import type { Drafts } from "./drafts";

/**
 * Where drafts are kept between visits: IndexedDB, whose quota is a share of the disk, where
 * local storage holds a few megabytes for the whole site and one large paste used to exceed it. The
 * drafts are stored as they are (a structured clone), under the key `storageKey` gives. A few lines of
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

/** The stored drafts under `key`, or undefined when there are none. */
export async function loadDrafts(key: string): Promise<Drafts | undefined> {
  const value = await inStore("readonly", (store) => store.get(key));
  return Array.isArray(value) ? (value as Drafts) : undefined;
}

/** Stores the drafts under `key`; no drafts removes them. Rejects with the browser's reason. */
export async function storeDrafts(key: string, drafts: Drafts): Promise<void> {
  await inStore("readwrite", (store) => (drafts.length === 0 ? store.delete(key) : store.put(drafts, key)));
}

/**
 * Drafts kept in local storage by an earlier version of the page, taken out once it is stored here.
 */
export function legacyDrafts(key: string): { drafts: Drafts; forget(): void } | undefined {
  try {
    const text = localStorage.getItem(key);
    if (text === null) return undefined;
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return undefined;
    return { drafts: value as Drafts, forget: () => localStorage.removeItem(key) };
  } catch {
    return undefined;
  }
}
