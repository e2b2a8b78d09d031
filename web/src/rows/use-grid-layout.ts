import { useCallback, useEffect, useState } from "react";
import { DEFAULT_LAYOUT, type GridLayout, readLayout, writeLayout } from "./grid-layout";

const localStorageOf = () => window.localStorage;

/**
 * The grid's layout for one dataset, read from local storage when the dataset is known and kept there
 * on every change. Storage that refuses leaves the layout working for this visit only.
 */
export function useGridLayout(datasetId: string | undefined) {
  const [state, setState] = useState(() => ({
    datasetId,
    layout: datasetId === undefined ? DEFAULT_LAYOUT : readLayout(localStorageOf, datasetId),
    changed: false,
  }));
  // Another dataset (or the dataset now known): its own layout, read before the grid draws.
  let current = state;
  if (state.datasetId !== datasetId) {
    current = {
      datasetId,
      layout: datasetId === undefined ? DEFAULT_LAYOUT : readLayout(localStorageOf, datasetId),
      changed: false,
    };
    setState(current);
  }

  useEffect(() => {
    if (state.changed && state.datasetId !== undefined)
      writeLayout(localStorageOf, state.datasetId, state.layout);
  }, [state]);

  const update = useCallback(
    (change: (layout: GridLayout) => GridLayout) =>
      setState((now) => ({ ...now, layout: change(now.layout), changed: true })),
    [],
  );
  return { layout: current.layout, update };
}
