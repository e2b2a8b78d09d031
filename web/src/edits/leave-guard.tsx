import { useCallback, useEffect } from "react";
import { type BlockerFunction, useBlocker, useLocation } from "react-router";
import { Dialog } from "../components/dialog";
import { plural } from "../words";

/**
 * Leaving a page with unsaved edits asks first: closing or reloading the tab through the browser's own
 * question, and a link inside the application through this dialog. Moving within the page (another
 * row, a filter) changes only the address's query, and does not ask.
 */
export function LeaveGuard({ edits, rows, unstored }: { edits: number; rows: number; unstored: boolean }) {
  const active = edits > 0;
  useEffect(() => {
    if (!active) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when a return value is set.
      event.returnValue = "";
    };
    addEventListener("beforeunload", ask);
    return () => removeEventListener("beforeunload", ask);
  }, [active]);
  // Only from this page: a guard whose page has gone, but whose unmounting React has not run yet (it
  // may wait, in a tab the browser does not paint), must not hold back a later Back to this page.
  const { pathname } = useLocation();
  const blocker = useBlocker(
    useCallback<BlockerFunction>(
      ({ currentLocation, nextLocation }) =>
        active && currentLocation.pathname === pathname && nextLocation.pathname !== pathname,
      [active, pathname],
    ),
  );
  const stay = () => blocker.reset?.();
  return (
    <Dialog title="Leave with unsaved edits?" open={blocker.state === "blocked"} onClose={stay}>
      <p>
        {plural(edits, "unsaved edit")} in {plural(rows, "row")}{" "}
        {edits === 1
          ? unstored
            ? "could not be kept in this browser: leaving loses it. Stay and save it first."
            : "stays in this browser and comes back when you open this dataset again, but the dataset does not have it until you save it."
          : unstored
            ? "could not be kept in this browser: leaving loses them. Stay and save them first."
            : "stay in this browser and come back when you open this dataset again, but the dataset does not have them until you save them."}
      </p>
      <div className="dialog-actions">
        <button type="button" className="button button-primary" onClick={stay}>
          Stay
        </button>
        <button type="button" className="button" onClick={() => blocker.proceed?.()}>
          Leave
        </button>
      </div>
    </Dialog>
  );
}
