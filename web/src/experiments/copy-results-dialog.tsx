import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { api } from "../api";
import { Dialog, FormActions } from "../components/dialog";
import { DatasetChoice, useDatasetChoice } from "../datasets/dataset-choice";
import { plural } from "../words";
import { describeFilters, isFiltered, type ResultFilters, resultsQuery } from "./result-filters";

/** The most row ids one copy names (the API's limit); a larger view is copied in several. */
const COPY_BATCH = 10_000;

export interface Copied {
  target: { slug: string; name: string };
  rowsCopied: number;
  version: number;
}

/**
 * The results' rows copied into another dataset of the project: the checked ones, or every row of
 * the filtered view (its results read page by page for their row ids). The rows are copied from the
 * dataset as it is now.
 */
export function CopyResultsDialog({
  open,
  projectSlug,
  experimentId,
  source,
  checked,
  filters,
  onClose,
  onDone,
}: {
  open: boolean;
  projectSlug: string;
  experimentId: string;
  /** The experiment's dataset, where the rows are copied from. */
  source: { slug: string; name: string };
  checked: readonly string[];
  filters: ResultFilters;
  onClose(): void;
  onDone(copied: Copied): void;
}) {
  const id = useId();
  const choice = useDatasetChoice(projectSlug, open, source.slug);
  const [which, setWhich] = useState<"checked" | "view">(checked.length > 0 ? "checked" : "view");
  const [collected, setCollected] = useState(0);
  const copy = useMutation({
    mutationFn: async (target: { slug: string; name: string }) => {
      const rowIds = which === "checked" ? [...checked] : await viewRowIds();
      let rowsCopied = 0;
      let version = 0;
      for (let start = 0; start < rowIds.length; start += COPY_BATCH) {
        const result = await api.datasets.copyRows(projectSlug, source.slug, {
          to: { datasetSlug: target.slug },
          selection: { mode: "selected", rowIds: rowIds.slice(start, start + COPY_BATCH) },
        });
        rowsCopied += result.rowsCopied;
        version = result.version;
      }
      return { target, rowsCopied, version };
    },
    onSuccess: onDone,
  });
  const viewRowIds = async () => {
    const rowIds: string[] = [];
    setCollected(0);
    for await (const result of api.experiments.iterateResults(projectSlug, experimentId, {
      ...resultsQuery(filters),
      limit: 200,
    })) {
      rowIds.push(result.rowId);
      if (rowIds.length % 200 === 0) setCollected(rowIds.length);
    }
    return rowIds;
  };
  const view = isFiltered(filters) ? `the results ${describeFilters(filters)}` : "all results";
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (choice.chosen) copy.mutate({ slug: choice.chosen.slug, name: choice.chosen.name });
  };
  return (
    <Dialog title="Copy these rows to a dataset" open={open} onClose={onClose}>
      <form onSubmit={submit}>
        <fieldset className="choice-group">
          <legend>Rows of {source.name} to copy</legend>
          <label>
            <input
              type="radio"
              name={`${id}-which`}
              checked={which === "checked"}
              disabled={checked.length === 0}
              onChange={() => setWhich("checked")}
            />{" "}
            The {plural(checked.length, "checked row")}
          </label>
          <label>
            <input
              type="radio"
              name={`${id}-which`}
              checked={which === "view"}
              onChange={() => setWhich("view")}
            />{" "}
            Every row of this view: {view}, every page
          </label>
        </fieldset>
        <DatasetChoice
          choice={choice}
          label="Copy into"
          none="This project has no other dataset to copy into; create one first."
        />
        <p className="muted">
          The rows are copied as they are in {source.name} now, with new row ids, as one new version of the
          target.
        </p>
        {copy.isPending && which === "view" ? (
          <p role="status">
            Reading the view&rsquo;s rows… {collected > 0 ? plural(collected, "row") : null}
          </p>
        ) : null}
        <FormActions
          error={copy.error ?? undefined}
          submitLabel={copy.isPending ? "Copying…" : "Copy rows"}
          disabled={copy.isPending || !choice.chosen}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
