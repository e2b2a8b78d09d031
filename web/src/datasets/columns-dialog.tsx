import type { DatasetColumn } from "@svc/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { api } from "../api";
import { Dialog } from "../components/dialog";
import { ErrorMessage } from "../components/errors";
import { NameField, RenameAndRemove } from "../components/named-list";
import { useToasts } from "../components/toasts";
import { columnsQuery } from "./queries";

/**
 * The dataset's columns: add, rename, reorder (drag, or the arrow buttons), remove with an undo, and
 * the removed ones, which keep their data and can come back.
 */
export function ColumnsDialog({
  open,
  projectSlug,
  datasetSlug,
  readOnly,
  onClose,
  onChanged,
}: {
  open: boolean;
  projectSlug: string;
  datasetSlug: string;
  readOnly: boolean;
  onClose(): void;
  onChanged(): Promise<void>;
}) {
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const [showRemoved, setShowRemoved] = useState(false);
  const [newName, setNewName] = useState("");
  const [renaming, setRenaming] = useState<{ identifier: string; name: string }>();
  const list = useRef<HTMLOListElement>(null);
  // The inline rename form replaces the column's buttons: focus goes into it, and back to its Rename
  // button when it closes, instead of falling to the page.
  const [focusAfterRename, setFocusAfterRename] = useState<string>();
  useEffect(() => {
    if (renaming === undefined && focusAfterRename !== undefined) {
      list.current
        ?.querySelector<HTMLButtonElement>(`[data-column="${CSS.escape(focusAfterRename)}"] .rename-button`)
        ?.focus();
      setFocusAfterRename(undefined);
    }
  }, [renaming, focusAfterRename]);
  const renamingId = renaming?.identifier;
  useEffect(() => {
    if (renamingId !== undefined) document.getElementById(`rename-${renamingId}`)?.focus();
  }, [renamingId]);
  const endRename = (identifier: string) => {
    setFocusAfterRename(identifier);
    setRenaming(undefined);
  };
  const [dragged, setDragged] = useState<string>();
  // Undo lives in the dialog: while it is open, the page behind it (and its toasts) cannot be clicked.
  const [lastRemoved, setLastRemoved] = useState<DatasetColumn>();
  const columnsRead = columnsQuery(projectSlug, datasetSlug);
  const columns = useQuery({ ...columnsRead, enabled: open });
  const all = columns.data?.columns ?? [];
  const active = all.filter((column) => !column.removed);
  const removed = all.filter((column) => column.removed);

  // One write at a time, with one error shown below the list, whichever change failed.
  const change = useMutation({
    mutationFn: (write: ColumnWrite) => writeColumns(projectSlug, datasetSlug, write),
    onSuccess: async (_done, write) => {
      await queryClient.invalidateQueries({ queryKey: columnsRead.queryKey });
      await onChanged();
      const success = successOf(write);
      if (success) toasts.show({ kind: "success", message: success });
    },
  });
  const error = change.error;
  const restore = (column: DatasetColumn) => {
    setLastRemoved(undefined);
    change.mutate({ kind: "restore", column });
  };
  // The form closes, the name field empties and the undo offers itself whether the write went through
  // or not: a failure is said below the list.
  const remove = (column: DatasetColumn) =>
    change.mutate({ kind: "remove", column }, { onSettled: () => setLastRemoved(column) });
  const close = () => {
    // Closed with a removal just made: the undo goes on in a toast.
    if (lastRemoved) {
      const column = lastRemoved;
      toasts.show({
        kind: "info",
        message: `Removed ${column.name}; its data is kept`,
        action: { label: "Undo", run: () => restore(column) },
      });
    }
    setLastRemoved(undefined);
    onClose();
  };
  const reorder = (order: string[]) => change.mutate({ kind: "reorder", order });
  const move = (identifier: string, delta: number) => {
    const order = active.map((column) => column.identifier);
    const from = order.indexOf(identifier);
    const to = from + delta;
    if (from < 0 || to < 0 || to >= order.length) return;
    order.splice(to, 0, ...order.splice(from, 1));
    reorder(order);
  };
  const drop = (target: string) => {
    if (!dragged || dragged === target) return;
    const order = active.map((column) => column.identifier).filter((id) => id !== dragged);
    order.splice(order.indexOf(target), 0, dragged);
    setDragged(undefined);
    reorder(order);
  };
  const add = (event: FormEvent) => {
    event.preventDefault();
    const name = newName.trim();
    change.mutate({ kind: "create", name }, { onSettled: () => setNewName("") });
  };

  return (
    <Dialog title="Columns" open={open} onClose={close} wide>
      {columns.isPending ? <p role="status">Loading columns…</p> : null}
      {lastRemoved ? (
        <div className="undo-bar" role="status">
          <span>Removed {lastRemoved.name}; its data is kept.</span>
          <button type="button" className="link-button" onClick={() => restore(lastRemoved)}>
            Undo
          </button>
        </div>
      ) : null}
      <ol ref={list} className="column-list" aria-label="Columns, in the grid's order: top is leftmost">
        {active.map((column, index) => (
          <li
            key={column.identifier}
            data-column={column.identifier}
            className={dragged === column.identifier ? "column-item dragging" : "column-item"}
            draggable={!readOnly}
            onDragStart={() => setDragged(column.identifier)}
            onDragOver={(event) => event.preventDefault()}
            onDrop={() => drop(column.identifier)}
          >
            {renaming?.identifier === column.identifier ? (
              <form
                className="inline-form"
                onSubmit={(event) => {
                  event.preventDefault();
                  const name = renaming.name.trim();
                  change.mutate(
                    { kind: "rename", column, name },
                    { onSettled: () => endRename(column.identifier) },
                  );
                }}
              >
                <label className="visually-hidden" htmlFor={`rename-${column.identifier}`}>
                  New name of {column.name}
                </label>
                <input
                  id={`rename-${column.identifier}`}
                  value={renaming.name}
                  onChange={(event) =>
                    setRenaming({ identifier: column.identifier, name: event.target.value })
                  }
                  required
                />
                <button type="submit" className="button button-primary">
                  Save
                </button>
                <button type="button" className="button" onClick={() => endRename(column.identifier)}>
                  Cancel
                </button>
              </form>
            ) : (
              <>
                <span className="drag-handle" aria-hidden="true">
                  ⋮⋮
                </span>
                <span className="column-name">{column.name}</span>
                <code className="column-id" title="Identifier: what the API and SDKs use; it never changes">
                  {column.identifier}
                </code>
                <span className="column-kind">
                  {column.source.kind === "builtin" ? "built-in" : "custom"}
                </span>
                {readOnly ? null : (
                  <span className="column-actions">
                    <button
                      type="button"
                      className="icon-button"
                      aria-label={`Move ${column.name} up`}
                      title="Up: one place to the left in the grid"
                      disabled={index === 0}
                      onClick={() => move(column.identifier, -1)}
                    >
                      ↑
                    </button>
                    <button
                      type="button"
                      className="icon-button"
                      aria-label={`Move ${column.name} down`}
                      title="Down: one place to the right in the grid"
                      disabled={index === active.length - 1}
                      onClick={() => move(column.identifier, 1)}
                    >
                      ↓
                    </button>
                    <RenameAndRemove
                      record={column}
                      remove="Remove"
                      onRename={({ identifier, name }) => setRenaming({ identifier, name })}
                      onRemove={remove}
                    />
                  </span>
                )}
              </>
            )}
          </li>
        ))}
      </ol>
      {readOnly ? null : (
        <form className="inline-form add-column" onSubmit={add}>
          <NameField
            id="new-column"
            label="New column"
            value={newName}
            placeholder="difficulty"
            onChange={setNewName}
          />
          <button type="submit" className="button button-primary" disabled={newName.trim() === ""}>
            Add column
          </button>
        </form>
      )}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={showRemoved}
          onChange={(event) => setShowRemoved(event.target.checked)}
        />
        Show removed columns ({removed.length})
      </label>
      {showRemoved ? (
        removed.length === 0 ? (
          <p className="muted">No column has been removed.</p>
        ) : (
          <ul className="column-list" aria-label="Removed columns">
            {removed.map((column) => (
              <li key={column.identifier} className="column-item removed">
                <span className="column-name">{column.name}</span>
                <code className="column-id">{column.identifier}</code>
                {readOnly ? null : (
                  <button
                    type="button"
                    className="button"
                    aria-label={`Restore ${column.name}`}
                    onClick={() => restore(column)}
                  >
                    Restore
                  </button>
                )}
              </li>
            ))}
          </ul>
        )
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={close}>
          Done
        </button>
      </div>
    </Dialog>
  );
}

/** One change to the dataset's columns. */
type ColumnWrite =
  | { kind: "create"; name: string }
  | { kind: "rename"; column: DatasetColumn; name: string }
  | { kind: "reorder"; order: string[] }
  | { kind: "remove"; column: DatasetColumn }
  | { kind: "restore"; column: DatasetColumn };

function writeColumns(projectSlug: string, datasetSlug: string, write: ColumnWrite): Promise<unknown> {
  switch (write.kind) {
    case "create":
      return api.datasets.createColumn(projectSlug, datasetSlug, { name: write.name });
    case "rename":
      return api.datasets.updateColumn(projectSlug, datasetSlug, write.column.identifier, {
        name: write.name,
      });
    case "reorder":
      return api.datasets.reorderColumns(projectSlug, datasetSlug, { order: write.order });
    case "remove":
      return api.datasets.deleteColumn(projectSlug, datasetSlug, write.column.identifier);
    case "restore":
      return api.datasets.restoreColumn(projectSlug, datasetSlug, write.column.identifier);
  }
}

/** What the toast says after the change; a removal and a new order show in the list alone. */
function successOf(write: ColumnWrite): string | undefined {
  switch (write.kind) {
    case "create":
      return `Added column ${write.name}`;
    case "rename":
      return `Renamed to ${write.name}`;
    case "restore":
      return `Restored ${write.column.name}`;
    default:
      return undefined;
  }
}
