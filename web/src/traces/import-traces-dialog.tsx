import type { Dataset, Trace, TraceFilterInput } from "@svc/sdk";
import { useMutation } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { useNavigate } from "react-router";
import { api } from "../api";
import { Dialog, FormActions } from "../components/dialog";
import { Table } from "../components/table";
import { useToasts } from "../components/toasts";
import { DatasetChoice, useDatasetChoice } from "../datasets/dataset-choice";
import { compact } from "../rows/cells";
import { plural } from "../words";

export type TraceSelection = { by: "ids"; ids: string[] } | { by: "filters"; filters: TraceFilterInput[] };

/** How many traces a selection holds; undefined for "every matching one". */
export const countOf = (selection: TraceSelection): number | undefined =>
  selection.by === "ids" ? selection.ids.length : undefined;

/**
 * The selected traces into a dataset, one row each (the trace's input and output; its id and summary
 * in the row's metadata, which links the row back), previewed first, as one version.
 */
export function ImportTracesDialog({
  open,
  projectSlug,
  selection,
  preview,
  onClose,
  onDone,
}: {
  open: boolean;
  projectSlug: string;
  selection: TraceSelection;
  preview: readonly Trace[];
  onClose(): void;
  onDone(): void;
}) {
  const toasts = useToasts();
  const navigate = useNavigate();
  const choice = useDatasetChoice(projectSlug, open);
  const chosen = choice.chosen;
  const count = countOf(selection);
  const what = count === undefined ? "every matching trace" : plural(count, "trace");
  const add = useMutation({
    mutationFn: (dataset: Dataset) =>
      api.datasets.importTraces(projectSlug, dataset.slug, { traces: selection }),
    onSuccess: (result, dataset) => {
      toasts.show({
        kind: "success",
        message: `Added ${plural(result.rowIds.length, "row")} to ${dataset.name} as version ${result.version}`,
        action: {
          label: "Open",
          run: () => navigate(`/projects/${projectSlug}/datasets/${dataset.slug}`),
        },
      });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen) add.mutate(chosen);
  };
  return (
    <Dialog title={`Add ${what} to a dataset`} open={open} onClose={onClose} wide>
      <form onSubmit={submit}>
        <DatasetChoice
          choice={choice}
          label="Dataset"
          none="This project has no dataset yet; create one first."
        />
        <Table
          caption={
            <>The rows they make{count === undefined || count > preview.length ? ", the first ones" : ""}</>
          }
          captionVisible
          columns={["Input", "Output", "Metadata"]}
        >
          {preview.map((trace) => (
            <tr key={trace.traceId}>
              <td>
                <code>{compact(trace.input, 140)}</code>
              </td>
              <td>
                <code>{compact(trace.output, 140)}</code>
              </td>
              <td>
                <code>{`traceId ${trace.traceId.slice(0, 12)}…`}</code>
              </td>
            </tr>
          ))}
        </Table>
        <FormActions
          error={add.error}
          submitLabel={add.isPending ? "Adding…" : `Add ${what}`}
          disabled={add.isPending || !chosen}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
