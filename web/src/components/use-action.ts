import { useCallback, useState } from "react";

/**
 * The state of one thing a person asked for (create, rename, delete…): busy while it runs, the error
 * it ended with, if any, to show where they asked. `run` answers whether it succeeded.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = useCallback(async (action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  const clearError = useCallback(() => setError(undefined), []);
  return { busy, error, run, clearError };
}
