import type { DatasetColumn } from "@svc/sdk";
import { type FormEvent, useId, useState } from "react";
import { Dialog, FormActions } from "../components/dialog";
import { FieldProblem } from "../components/errors";
import {
  describeFilterValue,
  type FilterValueKind,
  filterValueJson,
  type ListFilters,
  whereOf,
} from "../rows/filters";

type Condition = "missing" | "present" | "equals";

/**
 * The filters in force, one chip each with a way to remove it, and "Add filter": a cell empty, set,
 * or equal to a value (or a value at a path inside it, such as metadata.source = "prod").
 */
export function FilterChips({
  filters,
  columns,
  onChange,
}: {
  filters: ListFilters;
  columns: readonly DatasetColumn[];
  onChange(filters: ListFilters): void;
}) {
  const [open, setOpen] = useState(false);
  const name = (identifier: string) =>
    columns.find((column) => column.identifier === identifier)?.name ?? identifier;
  // The "Missing expected output" chip stands for its own filter.
  const chips = [
    ...filters.missing
      .filter((id) => id !== "expectedOutput")
      .map((id) => ({
        label: `${name(id)} is empty`,
        remove: () => onChange({ ...filters, missing: filters.missing.filter((m) => m !== id) }),
      })),
    ...filters.present.map((id) => ({
      label: `${name(id)} is set`,
      remove: () => onChange({ ...filters, present: filters.present.filter((p) => p !== id) }),
    })),
    ...filters.where.map((where) => {
      const [at = "", ...value] = where.split("=");
      const [column = "", ...path] = at.split(".");
      return {
        label: `${[name(column), ...path].join(".")} = ${describeFilterValue(value.join("="))}`,
        remove: () => onChange({ ...filters, where: filters.where.filter((w) => w !== where) }),
      };
    }),
  ];
  return (
    <>
      {chips.map((chip) => (
        <span key={chip.label} className="chip chip-on filter-chip">
          {chip.label}
          <button
            type="button"
            className="chip-remove"
            aria-label={`Remove the filter ${chip.label}`}
            onClick={chip.remove}
          >
            ×
          </button>
        </span>
      ))}
      <button type="button" className="button button-quiet" onClick={() => setOpen(true)}>
        Add filter
      </button>
      <FilterDialog
        open={open}
        columns={columns}
        onClose={() => setOpen(false)}
        onAdd={(condition, column, where) => {
          setOpen(false);
          if (condition === "missing") onChange({ ...filters, missing: [...filters.missing, column] });
          else if (condition === "present") onChange({ ...filters, present: [...filters.present, column] });
          else if (where) onChange({ ...filters, where: [...filters.where, where] });
        }}
      />
    </>
  );
}

function FilterDialog({
  open,
  columns,
  onClose,
  onAdd,
}: {
  open: boolean;
  columns: readonly DatasetColumn[];
  onClose(): void;
  onAdd(condition: Condition, column: string, where?: string): void;
}) {
  const id = useId();
  const [column, setColumn] = useState("expectedOutput");
  const [condition, setCondition] = useState<Condition>("missing");
  const [path, setPath] = useState("");
  const [value, setValue] = useState("");
  const [kind, setKind] = useState<FilterValueKind>("text");
  const parsed = filterValueJson(value, kind);
  const problem =
    condition === "equals" && !parsed.ok
      ? parsed.problem
      : condition === "equals" && path !== "" && !/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/.test(path)
        ? "A path is keys or indexes joined by dots, such as source or tags.0."
        : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    onAdd(
      condition,
      column,
      condition === "equals" && parsed.ok ? whereOf(column, path, parsed.json) : undefined,
    );
  };
  return (
    <Dialog title="Add a filter" open={open} onClose={onClose}>
      <form onSubmit={submit}>
        <label htmlFor={`${id}-column`}>Cell</label>
        <select id={`${id}-column`} value={column} onChange={(event) => setColumn(event.target.value)}>
          {columns.map((c) => (
            <option key={c.identifier} value={c.identifier}>
              {c.name}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-condition`}>Condition</label>
        <select
          id={`${id}-condition`}
          value={condition}
          onChange={(event) => setCondition(event.target.value as Condition)}
        >
          <option value="missing">is empty (not set, or null)</option>
          <option value="present">is set</option>
          <option value="equals">equals a value</option>
        </select>
        {condition === "equals" ? (
          <>
            <label htmlFor={`${id}-path`}>Path inside the cell (optional)</label>
            <input
              id={`${id}-path`}
              placeholder="source, or tags.0"
              value={path}
              onChange={(event) => setPath(event.target.value)}
            />
            <label htmlFor={`${id}-kind`}>Value is</label>
            <select
              id={`${id}-kind`}
              value={kind}
              onChange={(event) => setKind(event.target.value as FilterValueKind)}
            >
              <option value="text">Text, as typed (no quotes needed)</option>
              <option value="json">JSON: a number, true, false, null, an object</option>
            </select>
            <label htmlFor={`${id}-value`}>Value</label>
            <input
              id={`${id}-value`}
              className="value-input"
              placeholder={kind === "text" ? "prod" : "4, true, null"}
              aria-describedby={`${id}-understood`}
              value={value}
              onChange={(event) => setValue(event.target.value)}
            />
            <p id={`${id}-understood`} className="muted field-hint">
              {parsed.ok && value !== "" ? `Compared with ${describeFilterValue(parsed.json)}` : ""}
            </p>
          </>
        ) : null}
        <FieldProblem problem={value === "" ? undefined : problem} />
        <FormActions submitLabel="Add filter" disabled={problem !== undefined} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
