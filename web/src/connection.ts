import { SvcError } from "@svc/sdk";
import { useSyncExternalStore } from "react";

/**
 * Whether the platform is answering, as the page's own calls find it: a call that gets no answer, or a
 * 503 or 504 (a service or its database away, a restart), makes it unreachable; the next call that
 * gets any other answer makes it reachable again. Pages read it to say so and to catch up after.
 */
let reachable = true;
const listeners = new Set<() => void>();

function set(next: boolean): void {
  if (next === reachable) return;
  reachable = next;
  for (const listener of listeners) listener();
}

/** What `fetch` came back with, or that it failed; an abort is the page's own doing and says nothing. */
export function observeAnswer(answer: Response | "failed"): void {
  set(answer !== "failed" && !UNAVAILABLE_STATUSES.has(answer.status));
}

const UNAVAILABLE_STATUSES = new Set([503, 504]);

/** Whether an error means the platform did not answer (as opposed to answering no). */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof SvcError)) return false;
  return error.status === 0 || UNAVAILABLE_STATUSES.has(error.status);
}

export const platformReachable = (): boolean => reachable;

export function useReachable(): boolean {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, platformReachable);
}
