import type { Dataset, NewRow, Span } from "@svc/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect } from "react";
import { useNavigate } from "react-router";
import { api } from "../api";
import { Dialog, FormActions } from "../components/dialog";
import { useToasts } from "../components/toasts";
import { DatasetChoice, useDatasetChoice } from "../datasets/dataset-choice";
import { datasetQuery } from "../datasets/queries";
import { compact } from "../rows/cells";
import { spanGenAi } from "./gen-ai";

/** The dataset a person last sent traces or spans to, per project: the next dialog starts on it. */
const lastTargetKey = (projectSlug: string) => `svc.trace-target.${projectSlug}`;
export const rememberTarget = (projectSlug: string, datasetSlug: string) => {
  try {
    localStorage.setItem(lastTargetKey(projectSlug), datasetSlug);
  } catch {
    // Storage may be off (a private window): the dialog then starts on the first dataset.
  }
};
const lastTarget = (projectSlug: string): string | null => {
  try {
    return localStorage.getItem(lastTargetKey(projectSlug));
  } catch {
    return null;
  }
};

/** `useDatasetChoice`, starting on the dataset last chosen in this project. */
export function useTargetChoice(projectSlug: string, open: boolean) {
  const choice = useDatasetChoice(projectSlug, open);
  const { choose } = choice;
  useEffect(() => {
    if (!open) return;
    const saved = lastTarget(projectSlug);
    if (saved) choose(saved);
  }, [open, projectSlug, choose]);
  return choice;
}

/** The row a span makes: its messages in and out, and where it came from in the metadata. */
export function rowOfSpan(traceId: string, span: Span): NewRow {
  const ai = spanGenAi(span);
  return {
    input: ai.input,
    output: ai.output,
    metadata: {
      traceId,
      spanId: span.spanId,
      spanName: span.name,
      ...(ai.model ? { model: ai.model } : {}),
      ...(span.status.code === "error" ? { error: span.status.message ?? true } : {}),
    },
  };
}

/**
 * One span's input and output as a new row of a dataset the person picks (the one they used last,
 * at first): from a bad answer on screen to a dataset row in two clicks.
 */
export function AddSpanDialog({
  open,
  projectSlug,
  traceId,
  span,
  onClose,
}: {
  open: boolean;
  projectSlug: string;
  traceId: string;
  span: Span;
  onClose(): void;
}) {
  const toasts = useToasts();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const choice = useTargetChoice(projectSlug, open);
  const chosen = choice.chosen;
  const row = rowOfSpan(traceId, span);
  const add = useMutation({
    mutationFn: (dataset: Dataset) => api.datasets.insertRows(projectSlug, dataset.slug, { rows: [row] }),
    onSuccess: (result, dataset) => {
      rememberTarget(projectSlug, dataset.slug);
      void queryClient.invalidateQueries({ queryKey: datasetQuery(projectSlug, dataset.slug).queryKey });
      const rowId = result.rowIds[0] ?? "";
      toasts.show({
        kind: "success",
        message: `Added span ${span.name} to ${dataset.name} as row ${rowId} (version ${result.version})`,
        action: {
          label: "Open",
          run: () =>
            navigate(`/projects/${projectSlug}/datasets/${dataset.slug}?row=${encodeURIComponent(rowId)}`),
        },
      });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen) add.mutate(chosen);
  };
  return (
    <Dialog
      title={`Add span ${span.name} to a dataset`}
      open={open}
      onClose={() => {
        add.reset();
        onClose();
      }}
      wide
    >
      <form onSubmit={submit}>
        <DatasetChoice
          choice={choice}
          label="Dataset"
          none="This project has no dataset yet; create one first."
        />
        <dl className="trace-summary span-row-preview">
          <dt>Input</dt>
          <dd>
            <code>{row.input === null ? "null" : compact(row.input, 300)}</code>
          </dd>
          <dt>Output</dt>
          <dd>
            <code>{row.output === null || row.output === undefined ? "null" : compact(row.output, 300)}</code>
          </dd>
          <dt>Metadata</dt>
          <dd>
            <code>{compact(row.metadata ?? null, 300)}</code>
          </dd>
        </dl>
        <FormActions
          error={add.error}
          submitLabel={add.isPending ? "Adding…" : "Add as a row"}
          disabled={add.isPending || !chosen}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
