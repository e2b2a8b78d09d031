import type { Dataset, DatasetColumn, DatasetRow } from "@svc/sdk";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { api } from "../api";
import { CellText } from "../components/cell-text";
import { Dialog, FormActions } from "../components/dialog";
import { FieldProblem } from "../components/errors";
import { Table } from "../components/table";
import { parseJson } from "../rows/cells";
import { type CellSource, previewSetCell, setCellBatch } from "../rows/selection";
import { plural } from "../words";
import { DatasetChoice, useDatasetChoice } from "./dataset-choice";

/** The most rows one batch edit changes, as one version. */
const MAX_BATCH = 1_000;
const PREVIEW_ROWS = 8;

/**
 * One cell set across the selected rows, from a value or from another cell of each row (say the
 * expected output from the output): a preview of what changes first, then one batch edit, one
 * version, each row with its If-Match.
 */
export function SetCellDialog({
  open,
  projectSlug,
  datasetSlug,
  columns,
  rows,
  onClose,
  onDone,
}: {
  open: boolean;
  projectSlug: string;
  datasetSlug: string;
  columns: readonly DatasetColumn[];
  rows: readonly DatasetRow[];
  onClose(): void;
  onDone(version: number | null, changed: number): void;
}) {
  const id = useId();
  const [targetId, setTargetId] = useState("expectedOutput");
  const [from, setFrom] = useState<"cell" | "value">("cell");
  const [sourceId, setSourceId] = useState("output");
  const [text, setText] = useState('""');
  const target = columns.find((column) => column.identifier === targetId) ?? columns[0];
  const sourceColumn = columns.find((column) => column.identifier === sourceId);
  const parsed = parseJson(text);
  const source: CellSource | undefined =
    from === "cell"
      ? sourceColumn && { kind: "cell", column: sourceColumn }
      : parsed.ok
        ? { kind: "value", value: parsed.value }
        : undefined;
  const changes = target && source ? previewSetCell(rows, target, source) : [];
  const problem =
    from === "value" && !parsed.ok
      ? `The value is not JSON: ${parsed.problem.message} at line ${parsed.problem.line}, column ${parsed.problem.column}. A string needs its quotes.`
      : changes.length > MAX_BATCH
        ? `${changes.length.toLocaleString()} rows would change; one version changes at most ${MAX_BATCH.toLocaleString()}. Select fewer rows.`
        : undefined;

  const action = useMutation({
    mutationFn: (batch: Parameters<typeof api.datasets.updateRows>[2]) =>
      api.datasets.updateRows(projectSlug, datasetSlug, batch),
    onSuccess: (result) => onDone(result.versionId === null ? null : result.version, result.rowsUpdated),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!target || problem || changes.length === 0) return;
    action.mutate(setCellBatch(changes, rows, target));
  };

  return (
    <Dialog title={`Set a cell in ${plural(rows.length, "row")}`} open={open} onClose={onClose} wide>
      <form onSubmit={submit}>
        <label htmlFor={`${id}-target`}>Cell to set</label>
        <select id={`${id}-target`} value={targetId} onChange={(event) => setTargetId(event.target.value)}>
          {columns.map((column) => (
            <option key={column.identifier} value={column.identifier}>
              {column.name}
            </option>
          ))}
        </select>
        <fieldset className="import-mode">
          <legend>Its new value</legend>
          <label className="checkbox">
            <input type="radio" name="from" checked={from === "cell"} onChange={() => setFrom("cell")} />
            Copied from another cell of the same row
          </label>
          <label className="checkbox">
            <input type="radio" name="from" checked={from === "value"} onChange={() => setFrom("value")} />
            One value for every row (JSON)
          </label>
          {from === "cell" ? (
            <>
              <label htmlFor={`${id}-source`}>Copy from</label>
              <select
                id={`${id}-source`}
                value={sourceId}
                onChange={(event) => setSourceId(event.target.value)}
              >
                {columns
                  .filter((column) => column.identifier !== targetId)
                  .map((column) => (
                    <option key={column.identifier} value={column.identifier}>
                      {column.name}
                    </option>
                  ))}
              </select>
            </>
          ) : (
            <>
              <label htmlFor={`${id}-value`}>Value</label>
              <textarea
                id={`${id}-value`}
                className="value-input"
                rows={2}
                spellCheck={false}
                value={text}
                onChange={(event) => setText(event.target.value)}
              />
            </>
          )}
        </fieldset>
        {problem ? (
          <FieldProblem problem={problem} />
        ) : (
          <>
            <p role="status">
              {changes.length === 0
                ? "No selected row would change."
                : `${plural(changes.length, "row")} of ${rows.length.toLocaleString()} will change, as one version.`}
            </p>
            {changes.length > 0 && target ? (
              <Table caption="Preview of the change" columns={["Row", `${target.name} now`, "After"]}>
                {changes.slice(0, PREVIEW_ROWS).map((change) => (
                  <tr key={change.rowId}>
                    <td>
                      <code>{change.rowId}</code>
                    </td>
                    <td className="diff-before">
                      <CellText value={change.now} />
                    </td>
                    <td className="diff-after">
                      <CellText value={change.next} />
                    </td>
                  </tr>
                ))}
              </Table>
            ) : null}
            {changes.length > PREVIEW_ROWS ? (
              <p className="muted">and {plural(changes.length - PREVIEW_ROWS, "more row")}.</p>
            ) : null}
          </>
        )}
        <FormActions
          error={action.error}
          submitLabel={
            action.isPending ? "Saving…" : `Set ${target?.name ?? "cell"} in ${plural(changes.length, "row")}`
          }
          disabled={action.isPending || problem !== undefined || changes.length === 0}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}

/** The selected rows copied into another dataset of the project, as one version of that dataset. */
export function CopyDialog({
  open,
  projectSlug,
  datasetSlug,
  rowIds,
  onClose,
  onDone,
}: {
  open: boolean;
  projectSlug: string;
  datasetSlug: string;
  rowIds: readonly string[];
  onClose(): void;
  onDone(target: { slug: string; name: string }, version: number | null, copied: number): void;
}) {
  const choice = useDatasetChoice(projectSlug, open, datasetSlug);
  const chosen = choice.chosen;
  const action = useMutation({
    mutationFn: (target: Dataset) =>
      api.datasets.copyRows(projectSlug, datasetSlug, {
        to: { datasetSlug: target.slug },
        selection: { mode: "selected", rowIds: [...rowIds] },
      }),
    onSuccess: (result, target) =>
      onDone(
        { slug: target.slug, name: target.name },
        result.versionId === null ? null : result.version,
        result.rowsCopied,
      ),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen) action.mutate(chosen);
  };
  return (
    <Dialog title={`Copy ${plural(rowIds.length, "row")} to another dataset`} open={open} onClose={onClose}>
      <form onSubmit={submit}>
        <DatasetChoice
          choice={choice}
          label="Copy into"
          none="This project has no other dataset to copy into; create one first."
        />
        {chosen ? (
          <p className="muted">
            The copies get new row ids; custom columns go to the target&rsquo;s columns of the same name,
            created where missing. The copy is one new version of the target.
          </p>
        ) : null}
        <FormActions
          error={action.error}
          submitLabel={action.isPending ? "Copying…" : `Copy ${plural(rowIds.length, "row")}`}
          disabled={action.isPending || !chosen}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
