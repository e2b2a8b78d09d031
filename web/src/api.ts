import { type Actor, Client, type GetSessionResponse, SvcError } from "@svc/sdk";
import { observeAnswer } from "./connection";

/**
 * The browser's one client of the API: the same generated SDK every program uses, sending the
 * session cookie (never a key) and, on writes, the session's CSRF token. The token lives in memory
 * only; a reload asks `GET /v1/session` for it again.
 */
let csrfToken: string | undefined;

export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

const WRITES = new Set(["POST", "PATCH", "PUT", "DELETE"]);

/** Called when any call answers 401: the session is over, whatever the page was doing. */
let onSignedOut: (() => void) | undefined;
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

async function sessionFetch(url: string, init: RequestInit): Promise<Response> {
  const headers = new Headers(init.headers);
  if (csrfToken && WRITES.has((init.method ?? "GET").toUpperCase())) headers.set("x-csrf-token", csrfToken);
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers, credentials: "same-origin" });
  } catch (error) {
    if (!init.signal?.aborted) observeAnswer("failed");
    throw error;
  }
  observeAnswer(response);
  if (response.status === 401 && !url.includes("/v1/session")) onSignedOut?.();
  return response;
}

export const api = new Client({
  baseUrl: typeof location === "undefined" ? "http://127.0.0.1:8080" : location.origin,
  fetch: sessionFetch,
  // One retry for a brief 503 or 429 (the SDK honours Retry-After); beyond that the person decides.
  maxRetries: 1,
  timeoutMs: 30_000,
});

/** What `POST /v1/sessions` and `GET /v1/session` answer: who is signed in, and the CSRF token. */
export type BrowserSession = GetSessionResponse;

/** What history names this browser's own changes by: the person's id, or the key session's. */
export function ownActorOf(session: BrowserSession): Actor {
  return session.user
    ? { kind: "user", id: session.user.id, name: session.user.name }
    : { kind: "session", id: session.sessionId };
}

export const ownActorIdOf = (session: BrowserSession): string => ownActorOf(session).id;

/**
 * The session calls are answered once: a refusal is the person's to read (a wrong key, too many
 * tries), not one to repeat behind their back.
 */
const once = { maxRetries: 0 };

/** The current session, or undefined when signed out. */
export async function fetchSession(): Promise<BrowserSession | undefined> {
  try {
    return await api.sessions.get(once);
  } catch (error) {
    if (error instanceof SvcError && error.status === 401) return undefined;
    throw error;
  }
}

export async function signIn(
  credential: { apiKey: string } | { signInCode: string },
): Promise<BrowserSession> {
  return api.sessions.create(credential, once);
}

export async function signOut(): Promise<void> {
  try {
    await api.sessions.delete(once);
  } catch (error) {
    if (!(error instanceof SvcError && error.status === 401)) throw error;
  }
}

/**
 * Asks for a sign-in link by e-mail (`POST /v1/session/email`). The platform answers the same whether
 * or not the address is a member's; a 429 is the person asking too often.
 */
export async function emailSignInLink(email: string): Promise<void> {
  await api.sessions.emailLink({ email }, once);
}

export interface UploadOptions {
  mediaType: string;
  query: Record<string, string>;
  /** The same key for a retry of the same upload makes it the same request (default: a new one). */
  idempotencyKey?: string;
  /** Called as the file goes up, with the bytes sent so far. */
  onProgress?(sent: number): void;
  signal?: AbortSignal;
}

/**
 * Sends a file as a request body, with the session's cookie and CSRF token. XMLHttpRequest, not
 * fetch: only it reports an upload's progress. The file is streamed from disk, never read whole.
 */
export function upload<T>(path: string, file: Blob, options: UploadOptions): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    const url = new URL(path, location.origin);
    for (const [name, value] of Object.entries(options.query)) url.searchParams.set(name, value);
    request.open("POST", url);
    request.withCredentials = true;
    request.setRequestHeader("content-type", options.mediaType);
    request.setRequestHeader("idempotency-key", options.idempotencyKey ?? crypto.randomUUID());
    if (csrfToken) request.setRequestHeader("x-csrf-token", csrfToken);
    request.upload.onprogress = (event) => options.onProgress?.(event.loaded);
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        resolve(JSON.parse(request.responseText) as T);
        return;
      }
      if (request.status === 401) onSignedOut?.();
      reject(
        SvcError.fromResponse(
          request.status,
          request.statusText,
          request.responseText,
          request.getResponseHeader("x-request-id"),
        ),
      );
    };
    request.onerror = () => reject(new Error("The upload failed: the connection to the platform was lost"));
    request.onabort = () => reject(new DOMException("The upload was cancelled", "AbortError"));
    options.signal?.addEventListener("abort", () => request.abort(), { once: true });
    request.send(file);
  });
}

export { SvcError };
