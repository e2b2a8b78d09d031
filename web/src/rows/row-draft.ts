import type { Actor, Cell, DatasetColumn, DatasetRow, UpdateDatasetRowBody } from "@svc/sdk";
import { type CellMode, modeFor, switchMode } from "./cell-modes";
import { cellOf, editableText, type JsonProblem, parseJson, sameJson } from "./cells";

/**
 * One cell being edited: where it came from, its value as JSON text, whether that is JSON, and how
 * it is edited (Text mode shows and edits the string that JSON text holds).
 */
export interface CellDraft {
  column: DatasetColumn;
  original: Cell | undefined;
  text: string;
  problem: JsonProblem | undefined;
  mode: CellMode;
}

export interface RowDraft {
  rowId: string;
  /** The row's version when editing began: sent as If-Match. */
  baseVersion: number;
  cells: CellDraft[];
}

export function draftOf(row: DatasetRow, columns: readonly DatasetColumn[]): RowDraft {
  return {
    rowId: row.rowId,
    baseVersion: row.version,
    cells: columns.map((column) => {
      const original = cellOf(row, column);
      return {
        column,
        original,
        text: editableText(original),
        problem: undefined,
        mode: modeFor(original, column),
      };
    }),
  };
}

/** The draft with a cell's JSON text replaced, and its mode when given. */
export function editCell(draft: RowDraft, identifier: string, text: string, mode?: CellMode): RowDraft {
  return {
    ...draft,
    cells: draft.cells.map((cell) => {
      if (cell.column.identifier !== identifier) return cell;
      const parsed = parseJson(text);
      return { ...cell, text, problem: parsed.ok ? undefined : parsed.problem, mode: mode ?? cell.mode };
    }),
  };
}

/** The draft with a cell switched to `mode`, its value converted (see `switchMode`), and what that did. */
export function switchCellMode(
  draft: RowDraft,
  identifier: string,
  mode: CellMode,
): { draft: RowDraft; note: string | undefined } {
  const cell = draft.cells.find((c) => c.column.identifier === identifier);
  if (!cell || cell.mode === mode) return { draft, note: undefined };
  const switched = switchMode(cell.text, mode);
  return { draft: editCell(draft, identifier, switched.text, switched.mode), note: switched.note };
}

/** The cells whose parsed value differs from where editing began. */
export function changedCells(draft: RowDraft): { cell: CellDraft; value: Cell }[] {
  const changed: { cell: CellDraft; value: Cell }[] = [];
  for (const cell of draft.cells) {
    const parsed = parseJson(cell.text);
    if (parsed.ok && !sameJson(parsed.value, cell.original ?? null))
      changed.push({ cell, value: parsed.value });
  }
  return changed;
}

export const hasProblems = (draft: RowDraft): boolean =>
  draft.cells.some((cell) => cell.problem !== undefined);

/** The partial PATCH body: only the changed cells, custom ones merged by identifier; undefined if none. */
export function patchOf(draft: RowDraft): UpdateDatasetRowBody | undefined {
  const changed = changedCells(draft);
  if (changed.length === 0) return undefined;
  const body: UpdateDatasetRowBody = {};
  const custom: Record<string, Cell> = {};
  for (const { cell, value } of changed) {
    if (cell.column.source.kind === "builtin") body[cell.column.source.field] = value;
    else custom[cell.column.identifier] = value;
  }
  if (Object.keys(custom).length > 0) body.custom = custom;
  return body;
}

/** A conflict: someone saved the row after this draft began. */
export interface Conflict {
  theirs: DatasetRow;
  /** Who made their version, when the row's history says (it is looked up after the refusal). */
  by?: Actor | undefined;
  cells: { column: DatasetColumn; base: Cell | undefined; mine: Cell; theirs: Cell | undefined }[];
}

export function conflictOf(draft: RowDraft, theirs: DatasetRow): Conflict {
  return {
    theirs,
    cells: changedCells(draft).map(({ cell, value }) => ({
      column: cell.column,
      base: cell.original,
      mine: value,
      theirs: cellOf(theirs, cell.column),
    })),
  };
}

/**
 * A draft on top of their row: my changes kept, theirs taken where I changed nothing, so that saving
 * it (with their version as If-Match) loses neither.
 */
export function mergeOnto(draft: RowDraft, theirs: DatasetRow): RowDraft {
  const mine = new Map(changedCells(draft).map(({ cell, value }) => [cell.column.identifier, value]));
  return {
    rowId: draft.rowId,
    baseVersion: theirs.version,
    cells: draft.cells.map((cell) => {
      const original = cellOf(theirs, cell.column);
      const kept = mine.get(cell.column.identifier);
      return {
        column: cell.column,
        original,
        text: kept === undefined ? editableText(original) : editableText(kept),
        problem: undefined,
        mode: kept === undefined ? modeFor(original, cell.column) : cell.mode,
      };
    }),
  };
}

/** The draft once saved as `version`: what it holds is now the row's value, so nothing is changed. */
export function savedDraft(draft: RowDraft, version: number): RowDraft {
  return {
    ...draft,
    baseVersion: version,
    cells: draft.cells.map((cell) => {
      const parsed = parseJson(cell.text);
      return parsed.ok ? { ...cell, original: parsed.value } : cell;
    }),
  };
}
