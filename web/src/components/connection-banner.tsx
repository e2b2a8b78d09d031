import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef } from "react";
import { api } from "../api";
import { useReachable } from "../connection";
import { useToasts } from "./toasts";

/** Seconds between tries while the platform does not answer: soon at first, then every five. */
const RETRY_SECONDS = [1, 2, 3, 5];

/**
 * A strip under the top bar while the platform does not answer: it says so, keeps trying on its own,
 * and gets in the way of nothing. When an answer comes back, every query on the page is read again,
 * so the page catches up without a reload.
 */
export function ConnectionBanner() {
  const reachable = useReachable();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const probe = useCallback(
    // Any read that goes through a service to the database; its answer updates `reachable`.
    () => api.projects.list({ limit: 1 }, { maxRetries: 0, timeoutMs: 10_000 }).catch(() => undefined),
    [],
  );

  useEffect(() => {
    if (reachable) return;
    let tries = 0;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const next = () => {
      if (stopped) return;
      const seconds = RETRY_SECONDS[Math.min(tries++, RETRY_SECONDS.length - 1)] ?? 5;
      timer = setTimeout(() => void probe().then(next), seconds * 1_000);
    };
    next();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [reachable, probe]);

  const wasReachable = useRef(reachable);
  useEffect(() => {
    if (reachable && !wasReachable.current) {
      void queryClient.invalidateQueries();
      toasts.show({ kind: "info", message: "Connected to the platform again." });
    }
    wasReachable.current = reachable;
  }, [reachable, queryClient, toasts]);

  if (reachable) return null;
  return (
    <div className="connection-banner" role="status">
      <span>
        <strong>Cannot reach the platform</strong> — retrying… Unsaved edits stay on this page; save them
        again once it is back.
      </span>
      <button type="button" className="link-button" onClick={() => void probe()}>
        Retry now
      </button>
    </div>
  );
}
