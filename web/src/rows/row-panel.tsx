import type { DatasetColumn, DatasetRow, DatasetVersionEvent, UpdateDatasetRowBody } from "@svc/sdk";
import { useMutation } from "@tanstack/react-query";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import { api } from "../api";
import { ErrorMessage } from "../components/errors";
import { useToasts } from "../components/toasts";
import { changedUnderDraft } from "../datasets/live-events";
import { applyStaged, draftMatches, type StagedRow } from "../edits/drafts";
import { notSavedLead } from "../edits/not-saved";
import { writeIfUnchanged } from "../edits/write-if-unchanged";
import { actorLabel } from "../versions/changes";
import { CellField } from "./cell-field";
import { editAsCommands } from "./copy-as";
import { ConflictView } from "./row-conflict";
import {
  type Conflict,
  changedCells,
  conflictOf,
  draftOf,
  editCell,
  hasProblems,
  mergeOnto,
  patchOf,
  type RowDraft,
  savedDraft,
  switchCellMode,
} from "./row-draft";

export interface RowPanelProps {
  projectSlug: string;
  datasetSlug: string;
  row: DatasetRow;
  columns: readonly DatasetColumn[];
  readOnly: boolean;
  /** Called with the version a save made. */
  onSaved(version: number): void;
  onClose(): void;
  /** Focus the first editor when the panel opens (Enter or F2 in the grid). */
  focusOnOpen: boolean;
  /** Shown below the editor: the row's history. */
  history?: ReactNode;
  /** What the drafts hold for this row: the editor starts from it. */
  staged?: StagedRow | undefined;
  /** Every change of the draft, to keep the drafts in step. */
  onDraftChange?(draft: RowDraft): void;
  /** The row's last change the dataset's live changes announced, if any. */
  change?: DatasetVersionEvent | undefined;
  /** The versions this page wrote: no news to the editor. */
  ownVersions?: ReadonlySet<number>;
  /** The session's id, to name its own changes. */
  ownActorId?: string;
}

const NONE: ReadonlySet<number> = new Set();

/**
 * The row editor: one editor per cell, as text or as JSON validated as you type (docs/decisions/0045);
 * Save sends only the changed cells
 * with the row's version as If-Match, and a 412 opens the conflict view instead of overwriting.
 */
export function RowPanel(props: RowPanelProps) {
  const { row, columns, projectSlug, datasetSlug } = props;
  const toasts = useToasts();
  const [draft, setDraft] = useState<RowDraft>(() => applyStaged(draftOf(row, columns), props.staged));
  const write = useMutation({
    mutationFn: ({ target, body }: { target: RowDraft; body: UpdateDatasetRowBody }) =>
      writeIfUnchanged(
        async () => {
          const saved = await api.datasets.updateRow(projectSlug, datasetSlug, row.rowId, body, {
            ifMatch: target.baseVersion,
          });
          setConflict(undefined);
          setDraft(savedDraft(target, saved.version));
          toasts.show({ kind: "success", message: `Saved row ${row.rowId} as version ${saved.version}` });
          props.onSaved(saved.version);
        },
        async () => {
          const theirs = await api.datasets.getRow(projectSlug, datasetSlug, row.rowId);
          setConflict({ ...conflictOf(target, theirs), by: await lastChangeBy(theirs) });
        },
      ),
  });
  const { isPending: saving, error, reset: clearError } = write;
  const [conflict, setConflict] = useState<Conflict>();
  const [copyOpen, setCopyOpen] = useState(false);
  const firstEditor = useRef<{ focus(): void }>(null);
  // A failed save says why below the editors: in view, however far down a long value pushed it.
  const errorShown = useCallback((message: HTMLDivElement | null) => {
    message?.scrollIntoView({ block: "nearest" });
  }, []);

  // Another row, or this row changed under us while nothing was edited: start from what is there now.
  const changed = useMemo(() => changedCells(draft), [draft]);
  useEffect(() => {
    setDraft((current) =>
      current.rowId !== row.rowId || changedCells(current).length === 0 ? draftOf(row, columns) : current,
    );
    // The list read again (a live change) brings the version the conflict already shows: it stays.
    setConflict((current) => (current && isShownIn(current, row) ? current : undefined));
    clearError();
  }, [row, columns, clearError]);
  // The drafts changed elsewhere (a staged cell undone, everything saved or discarded): follow them.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the drafts counts, not of the draft
  useEffect(() => {
    setDraft((current) =>
      draftMatches(current, props.staged) ? current : applyStaged(draftOf(row, columns), props.staged),
    );
  }, [props.staged]);
  useEffect(() => {
    if (!props.readOnly) props.onDraftChange?.(draft);
  }, [draft, props.readOnly, props.onDraftChange]);
  useEffect(() => {
    if (props.focusOnOpen) firstEditor.current?.focus();
  }, [props.focusOnOpen]);

  const lastChangeBy = (theirs: DatasetRow) => lastChangeByOf(projectSlug, datasetSlug, theirs);
  const save = (target: RowDraft = draft) => {
    const body = patchOf(target);
    if (!body || hasProblems(target) || saving) return;
    write.mutate({ target, body });
  };

  const discard = () => {
    setDraft(draftOf(row, columns));
    clearError();
  };
  const cancel = () => (changed.length > 0 ? discard() : props.onClose());
  const body = useMemo(() => patchOf(draft), [draft]);
  // Written out only while shown: for a value of megabytes, four copies of it on every keystroke cost.
  const commands =
    body && copyOpen
      ? editAsCommands(location.origin, projectSlug, datasetSlug, row.rowId, draft.baseVersion, body)
      : undefined;

  // Said as soon as it is known, not at the save: the person reviews before overwriting anything.
  const changedElsewhere =
    !saving &&
    !conflict &&
    changedUnderDraft(
      props.change,
      { baseVersion: draft.baseVersion, edited: changed.length > 0 },
      props.ownVersions ?? NONE,
    )
      ? props.change
      : undefined;

  return (
    <aside className="row-panel" aria-label={`Row ${row.rowId}`}>
      <div className="row-panel-head">
        <div>
          <h2>
            Row <code>{row.rowId}</code>
          </h2>
          <p className="muted">
            version {row.version} · created {new Date(row.createdAt).toLocaleString()}
          </p>
          {traceOf(row) ? (
            <p>
              <Link to={`/projects/${projectSlug}/traces/${traceOf(row)}`}>
                From trace {traceOf(row)?.slice(0, 12)}
              </Link>
            </p>
          ) : null}
        </div>
        <div className="row-panel-tools">
          <button
            type="button"
            className="button button-quiet"
            onClick={() =>
              navigator.clipboard?.writeText(row.rowId).then(
                () => toasts.show({ kind: "info", message: `Copied row id ${row.rowId}` }),
                () => toasts.show({ kind: "error", message: "Could not copy to the clipboard" }),
              )
            }
          >
            Copy id
          </button>
          <button type="button" className="icon-button" aria-label="Close row" onClick={props.onClose}>
            ×
          </button>
        </div>
      </div>

      {changedElsewhere ? (
        <p className="notice" role="alert">
          {changedByLine(changedElsewhere, props.ownActorId)} — review before saving.
        </p>
      ) : null}

      {conflict ? (
        <ConflictView
          conflict={conflict}
          ownActorId={props.ownActorId}
          saving={saving}
          onKeepMine={() => {
            const mine = { ...draft, baseVersion: conflict.theirs.version };
            setDraft(mine);
            save(mine);
          }}
          onTakeTheirs={() => {
            setConflict(undefined);
            setDraft(draftOf(conflict.theirs, columns));
            props.onSaved(conflict.theirs.version);
          }}
          onMerge={() => {
            setDraft(mergeOnto(draft, conflict.theirs));
            setConflict(undefined);
          }}
        />
      ) : null}

      <form
        className="row-form"
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        {draft.cells.map((cell, index) => {
          const dirty = changed.some((c) => c.cell.column.identifier === cell.column.identifier);
          const identifier = cell.column.identifier;
          return (
            <CellField
              key={identifier}
              ref={index === 0 ? firstEditor : undefined}
              cell={cell}
              dirty={dirty}
              readOnly={props.readOnly}
              onEdit={(text) => setDraft((current) => editCell(current, identifier, text))}
              onSwitch={(mode) => {
                const switched = switchCellMode(draft, identifier, mode);
                setDraft(switched.draft);
                return switched.note;
              }}
              onSave={() => save()}
              onCancel={cancel}
            />
          );
        })}
        {error ? (
          <div ref={errorShown} className="row-form-error">
            <ErrorMessage error={error} lead={notSavedLead(error, body, "one")} />
          </div>
        ) : null}
        {props.readOnly ? null : (
          <div className="row-form-actions">
            <span className="muted">
              {hasProblems(draft)
                ? "Fix the JSON errors to save"
                : changed.length === 0
                  ? "No changes"
                  : `${changed.length} changed ${changed.length === 1 ? "cell" : "cells"}`}
            </span>
            <button type="button" className="button" disabled={changed.length === 0} onClick={discard}>
              Discard
            </button>
            <button
              type="submit"
              className="button button-primary"
              disabled={saving || changed.length === 0 || hasProblems(draft)}
              aria-keyshortcuts="Control+S Meta+S"
            >
              {saving ? "Saving…" : "Save"}
            </button>
          </div>
        )}
      </form>

      {body ? (
        <details
          className="copy-as"
          open={copyOpen}
          onToggle={(event) => setCopyOpen(event.currentTarget.open)}
        >
          <summary>Copy this edit as curl, svc or SDK code</summary>
          {(commands ? (["curl", "svc", "typescript", "python"] as const) : []).map((kind) => (
            <div key={kind} className="copy-block">
              <div className="copy-block-head">
                <span>
                  {kind === "typescript" ? "TypeScript SDK" : kind === "python" ? "Python SDK" : kind}
                </span>
                <button
                  type="button"
                  className="button button-quiet"
                  onClick={() =>
                    navigator.clipboard?.writeText(commands?.[kind] ?? "").then(
                      () => toasts.show({ kind: "info", message: `Copied as ${kind}` }),
                      () => undefined,
                    )
                  }
                >
                  Copy
                </button>
              </div>
              <pre>{commands?.[kind]}</pre>
            </div>
          ))}
        </details>
      ) : null}
      {props.history}
    </aside>
  );
}

/** Who made the row's version `row.version`, from its history; nothing when that cannot be told. */
async function lastChangeByOf(projectSlug: string, datasetSlug: string, row: DatasetRow) {
  try {
    const history = await api.datasets.rowHistory(projectSlug, datasetSlug, row.rowId, { limit: 1 });
    const newest = history.items[0];
    return newest?.version === row.version ? newest.actor : undefined;
  } catch {
    // The conflict matters more than its author: it is shown without the name.
    return undefined;
  }
}

/** Whether the row, as the list now has it, is no newer than the "theirs" a conflict compares with. */
function isShownIn(conflict: Conflict, row: DatasetRow): boolean {
  return conflict.theirs.rowId === row.rowId && conflict.theirs.version >= row.version;
}

function changedByLine(change: DatasetVersionEvent, ownActorId: string | undefined): string {
  const by = actorLabel(change.actor, ownActorId);
  // The same session in another tab or window: "by You" would read as this editor's own save.
  const who = by === "You" ? "in another tab of this session" : `by ${by}`;
  return `Changed ${who} at version ${change.version}`;
}

/** The trace a row was made from, as the import from traces records it in the row's metadata. */
function traceOf(row: DatasetRow): string | undefined {
  const metadata = row.metadata;
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) return undefined;
  const traceId = (metadata as Record<string, unknown>).traceId;
  return typeof traceId === "string" && /^[0-9a-f]{32}$/.test(traceId) ? traceId : undefined;
}
