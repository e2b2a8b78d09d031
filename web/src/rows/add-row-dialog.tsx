import type { Cell, DatasetColumn, NewRow } from "@svc/sdk";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../api";
import { Dialog, FormActions } from "../components/dialog";
import { JsonEditor } from "../components/json-editor";
import { type JsonProblem, parseJson } from "./cells";

interface AddRowFormProps {
  projectSlug: string;
  datasetSlug: string;
  columns: readonly DatasetColumn[];
  onClose(): void;
  onAdded(rowId: string, version: number): Promise<void>;
}

/** A new row: its id (or one generated), then one JSON editor per active column; input is required. */
export function AddRowDialog({ open, ...form }: AddRowFormProps & { open: boolean }) {
  return (
    <Dialog title="Add a row" open={open} onClose={form.onClose} wide>
      {open ? <AddRowForm {...form} /> : null}
    </Dialog>
  );
}

function AddRowForm({ projectSlug, datasetSlug, columns, onClose, onAdded }: AddRowFormProps) {
  const [rowId, setRowId] = useState("");
  const [texts, setTexts] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      columns.map((column) => [column.identifier, column.identifier === "input" ? '""' : "null"]),
    ),
  );
  const add = useMutation({
    mutationFn: (row: NewRow) => api.datasets.insertRows(projectSlug, datasetSlug, { rows: [row] }),
    onSuccess: (created) => onAdded(created.rowIds[0] ?? "", created.version),
  });
  const problems: Record<string, JsonProblem | undefined> = Object.fromEntries(
    columns.map((column) => {
      const parsed = parseJson(texts[column.identifier] ?? "null");
      return [column.identifier, parsed.ok ? undefined : parsed.problem];
    }),
  );
  const invalid = Object.values(problems).some(Boolean);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (invalid) return;
    const row: NewRow = { input: null };
    const custom: Record<string, Cell> = {};
    for (const column of columns) {
      const parsed = parseJson(texts[column.identifier] ?? "null");
      if (!parsed.ok) return;
      if (column.source.kind === "builtin") row[column.source.field] = parsed.value;
      else if (parsed.value !== null) custom[column.identifier] = parsed.value;
    }
    if (Object.keys(custom).length > 0) row.custom = custom;
    if (rowId.trim()) row.id = rowId.trim();
    add.mutate(row);
  };

  return (
    <form onSubmit={submit} className="row-form">
      <label htmlFor="new-row-id">Row id (optional; one is generated)</label>
      <input
        id="new-row-id"
        value={rowId}
        onChange={(event) => setRowId(event.target.value)}
        pattern="[A-Za-z0-9_.~\-]{1,128}"
        placeholder="q-001"
      />
      {columns.map((column) => (
        <div className="cell-field" key={column.identifier}>
          <label htmlFor={`new-${column.identifier}`}>
            {column.name}
            {column.identifier === "input" ? " (required)" : ""}
          </label>
          <JsonEditor
            id={`new-${column.identifier}`}
            label={`New row ${column.name}`}
            value={texts[column.identifier] ?? "null"}
            problem={problems[column.identifier]}
            onChange={(text) => setTexts((current) => ({ ...current, [column.identifier]: text }))}
            onSave={() => undefined}
            onCancel={onClose}
          />
        </div>
      ))}
      <FormActions
        error={add.error}
        submitLabel={add.isPending ? "Adding…" : "Add row"}
        disabled={add.isPending || invalid}
        onCancel={onClose}
      />
    </form>
  );
}
