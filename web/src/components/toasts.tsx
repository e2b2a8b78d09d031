import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";

export interface Toast {
  id: number;
  kind: "success" | "error" | "info";
  message: string;
  action?: { label: string; run: () => void } | undefined;
}

interface ToastsValue {
  show(toast: Omit<Toast, "id">): void;
}

const ToastContext = createContext<ToastsValue | undefined>(undefined);

/** Short-lived notices (a save's new version, an undo), announced to screen readers as they come. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(0);
  // A toast's own timer ends with the provider: nothing is dismissed on a page that is gone.
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    };
  }, []);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const value = useMemo<ToastsValue>(
    () => ({
      show: (toast) => {
        const id = ++next.current;
        setToasts((all) => [...all.slice(-3), { ...toast, id }]);
        const timer = setTimeout(
          () => {
            timers.current.delete(timer);
            dismiss(id);
          },
          toast.action ? 8_000 : 4_000,
        );
        timers.current.add(timer);
      },
    }),
    [dismiss],
  );
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.kind}`}>
            <span>{toast.message}</span>
            {toast.action ? (
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  toast.action?.run();
                  dismiss(toast.id);
                }}
              >
                {toast.action.label}
              </button>
            ) : null}
            <button
              type="button"
              className="icon-button"
              aria-label="Dismiss"
              onClick={() => dismiss(toast.id)}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToasts(): ToastsValue {
  const value = useContext(ToastContext);
  if (!value) throw new Error("useToasts outside ToastProvider");
  return value;
}
