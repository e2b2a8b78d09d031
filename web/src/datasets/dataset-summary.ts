import type { Dataset } from "@svc/sdk";
import { plural } from "../words";

type Counted = Pick<Dataset, "rows" | "version" | "columns">;

/** What the datasets list says of one: "210,000 rows · version 12 · 4 columns". */
export const datasetDetail = (dataset: Counted): string =>
  `${plural(dataset.rows, "row")} · version ${dataset.version} · ${plural(dataset.columns.length, "column")}`;

/** What deleting a dataset deletes, every count exact. */
export const datasetDeleteConsequence = (dataset: Counted): string =>
  `Its ${plural(dataset.rows, "row")}, its ${plural(dataset.columns.length, "column")} and ${plural(dataset.version, "version")} of history will be deleted.`;
