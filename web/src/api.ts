import { type Actor, Client, SvcError } from "@svc/sdk";
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

export interface BrowserSession {
  organization: { id: string; name: string; slug: string };
  role: "owner" | "admin" | "member" | "viewer";
  csrfToken: string;
  expiresAt: string;
  /** As history names a session opened with a key: `actor: {kind: "session", id}`. */
  sessionId: string;
  /** The person signed in, when the session is a person's: history names it `actor: {kind: "user", id}`. */
  user?: { id: string; email: string | null; name: string } | null;
}

/** What history names this browser's own changes by: the person's id, or the key session's. */
export function ownActorOf(session: BrowserSession): Actor {
  return session.user
    ? { kind: "user", id: session.user.id, name: session.user.name }
    : { kind: "session", id: session.sessionId };
}

export const ownActorIdOf = (session: BrowserSession): string => ownActorOf(session).id;

async function sessionCall(method: string, body?: unknown): Promise<Response> {
  return fetch(`${location.origin}/v1/${method === "POST" ? "sessions" : "session"}`, {
    method,
    credentials: "same-origin",
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(csrfToken && method !== "GET" ? { "x-csrf-token": csrfToken } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function errorOf(response: Response): Promise<SvcError> {
  return SvcError.fromResponse(
    response.status,
    response.statusText,
    await response.text(),
    response.headers.get("x-request-id"),
  );
}

/** The current session, or undefined when signed out. */
export async function fetchSession(): Promise<BrowserSession | undefined> {
  const response = await sessionCall("GET");
  if (response.status === 401) return undefined;
  if (!response.ok) throw await errorOf(response);
  return (await response.json()) as BrowserSession;
}

export async function signIn(
  credential: { apiKey: string } | { signInCode: string },
): Promise<BrowserSession> {
  const response = await sessionCall("POST", credential);
  if (!response.ok) throw await errorOf(response);
  return (await response.json()) as BrowserSession;
}

export async function signOut(): Promise<void> {
  const response = await sessionCall("DELETE");
  if (!response.ok && response.status !== 401) throw await errorOf(response);
}

/**
 * Asks for a sign-in link by e-mail (`POST /v1/session/email`). The platform answers the same whether
 * or not the address is a member's; a 429 is the person asking too often.
 */
export async function emailSignInLink(email: string): Promise<void> {
  const response = await fetch(`${location.origin}/v1/session/email`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email }),
  });
  if (!response.ok) throw await errorOf(response);
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
