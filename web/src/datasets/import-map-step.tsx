import type { DatasetColumn } from "@svc/sdk";
import { FieldProblem } from "../components/errors";
import { Table } from "../components/table";
import { csvRetyping, type FieldTarget, retypedFields } from "./file-preview";
import { clip } from "./import-status";
import type { Mode, Step } from "./import-steps";

/** The file's first rows, and for each of its fields the cell it goes to; then insert or update. */
export function MapStep({
  step,
  columns,
  targets,
  setTargets,
  textFields,
  setTextFields,
  mode,
  setMode,
  onBack,
  onImport,
}: {
  step: Extract<Step, { kind: "map" }>;
  columns: readonly DatasetColumn[];
  targets: Record<string, FieldTarget>;
  setTargets(targets: Record<string, FieldTarget>): void;
  textFields: ReadonlySet<string>;
  setTextFields(fields: ReadonlySet<string>): void;
  mode: Mode;
  setMode(mode: Mode): void;
  onBack(): void;
  onImport(): void;
}) {
  const preview = step.preview;
  const active = columns.filter((column) => !column.removed);
  const fields = preview?.fields ?? [];
  const csv = step.format === "csv";
  // What the first rows' values would become, field by field: a CSV holds text, the import types it.
  const retyped = csv && preview ? retypedFields(preview) : {};
  const keepAsText = (field: string, on: boolean) => {
    const next = new Set(textFields);
    if (on) next.add(field);
    else next.delete(field);
    setTextFields(next);
  };
  const idField = Object.entries(targets).find(([, target]) => target.kind === "id")?.[0];
  const mapped = fields.some((field) => targets[field]?.kind === "column" || targets[field]?.kind === "new");
  const problem =
    mode === "update" && fields.length > 0 && idField === undefined
      ? "Updating rows needs the field that holds each row's id: choose one as Row id."
      : fields.length > 0 && !mapped
        ? "Every field is set to “Don’t import”: choose where at least one goes."
        : undefined;
  const setTarget = (field: string, value: string) => {
    const next: Record<string, FieldTarget> = { ...targets };
    if (value === "id") {
      // One field holds the row id: choosing another frees the first.
      for (const [other, target] of Object.entries(next))
        if (target.kind === "id") next[other] = { kind: "skip" };
      next[field] = { kind: "id" };
    } else if (value === "new" || value === "skip" || value === "cells") next[field] = { kind: value };
    else next[field] = { kind: "column", identifier: value.slice("column:".length) };
    setTargets(next);
  };
  return (
    <>
      {step.previewProblem ? (
        <p className="field-problem" role="alert">
          {step.previewProblem}
        </p>
      ) : !preview ? (
        <p className="muted" role="status">
          Reading the first rows…
        </p>
      ) : fields.length === 0 ? (
        <p className="muted">
          This file is too large to preview in the browser; its fields go to the columns of the same name, and
          the others become new columns.
        </p>
      ) : (
        <>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a wide file scrolls sideways; the arrow keys scroll it once it has focus */}
          <section className="preview-scroller" tabIndex={0} aria-label="First rows of the file, scrollable">
            <Table
              caption="First rows of the file"
              captionVisible
              className="table preview-table"
              columns={fields}
            >
              {preview.rows.map((row, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no identity but their place
                <tr key={index}>
                  {fields.map((field) => {
                    const text = row[field] ?? "";
                    const kind = csv && !textFields.has(field) ? csvRetyping(text) : undefined;
                    return (
                      <td key={field}>
                        {clip(text)}
                        {kind ? <span className="type-badge">{kind}</span> : null}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </Table>
          </section>
          <fieldset className="mapping">
            <legend>Where each field goes</legend>
            {fields.map((field) => {
              const target = targets[field] ?? { kind: "skip" };
              const value = target.kind === "column" ? `column:${target.identifier}` : target.kind;
              const id = `map-${field}`;
              const kinds = retyped[field];
              const imported = target.kind === "column" || target.kind === "new";
              return (
                <div key={field} className="mapping-row">
                  <label htmlFor={id}>
                    <code>{field}</code>
                  </label>
                  <select id={id} value={value} onChange={(event) => setTarget(field, event.target.value)}>
                    <option value="id">Row id</option>
                    {active.map((column) => (
                      <option key={column.identifier} value={`column:${column.identifier}`}>
                        {column.name}
                      </option>
                    ))}
                    <option value="new">New column “{field}”</option>
                    {step.format === "csv" ? null : (
                      <option value="cells">Custom columns (an object of cells by column)</option>
                    )}
                    <option value="skip">Don’t import</option>
                  </select>
                  {csv && imported ? (
                    <div className="retyping">
                      <label className="checkbox">
                        <input
                          type="checkbox"
                          checked={textFields.has(field)}
                          aria-describedby={kinds ? `${id}-retyped` : undefined}
                          onChange={(event) => keepAsText(field, event.target.checked)}
                        />
                        Keep as text<span className="visually-hidden">: {field}</span>
                      </label>
                      {kinds ? (
                        <span id={`${id}-retyped`} className={textFields.has(field) ? "muted" : "retyped"}>
                          {textFields.has(field)
                            ? `Kept as text: its values stay as written`
                            : `Its values become ${kinds.map(describeRetyping).join(", ")}`}
                        </span>
                      ) : null}
                    </div>
                  ) : null}
                </div>
              );
            })}
          </fieldset>
        </>
      )}
      <fieldset className="import-mode">
        <legend>The file’s rows</legend>
        <label className="checkbox">
          <input type="radio" name="mode" checked={mode === "insert"} onChange={() => setMode("insert")} />{" "}
          Add as new rows
        </label>
        <label className="checkbox">
          <input type="radio" name="mode" checked={mode === "update"} onChange={() => setMode("update")} />{" "}
          Update existing rows, matched by row id (only cells that differ change)
        </label>
      </fieldset>
      <FieldProblem problem={problem} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onBack}>
          Choose another file
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={
            problem !== undefined || step.previewProblem !== undefined || (!preview && !step.previewProblem)
          }
          onClick={onImport}
        >
          {mode === "insert" ? "Import rows" : "Update rows"}
        </button>
      </div>
    </>
  );
}

/** A re-typing as the mapping says it: "a number (42)". */
function describeRetyping(kind: string): string {
  switch (kind) {
    case "number":
      return "numbers (42)";
    case "boolean":
      return "booleans (true)";
    case "null":
      return "null";
    case "object":
      return "objects ({…})";
    case "array":
      return "arrays ([…])";
    default:
      return 'text without its quotes ("42")';
  }
}
