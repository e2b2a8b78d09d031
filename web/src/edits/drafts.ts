import type { Cell, DatasetColumn, UpdateDatasetRowsBody } from "@svc/sdk";
import type { CellMode } from "../rows/cell-modes";
import { editableText, parseJson, sameJson } from "../rows/cells";
import { editCell, type RowDraft } from "../rows/row-draft";

/**
 * The drafts: the cells a person changed across rows and has not saved yet, kept in the browser
 * (never on the platform, never with a credential) until they save them all as one version or discard
 * them. Each row keeps the version its editing began from, sent as its If-Match.
 */
export interface StagedRow {
  rowId: string;
  baseVersion: number;
  /** Each changed cell's editor text, by column identifier: text, so a half-typed value survives too. */
  texts: Record<string, string>;
  /** Each changed cell's value when editing began (null when it was not set). */
  before: Record<string, Cell>;
  /** Each changed cell's mode; a cell without one (staged before modes) is JSON. */
  modes?: Record<string, CellMode>;
}

/** Rows in the order they were first edited. */
export type Drafts = StagedRow[];

/** One staged cell, as the review lists it. */
export interface StagedCell {
  rowId: string;
  column: DatasetColumn;
  before: Cell;
  text: string;
  /** The new value, or undefined while the text is not JSON. */
  after: Cell | undefined;
}

/** The drafts with the row's draft among them: its changed cells replace what was staged for the row. */
export function stageDraft(drafts: Drafts, draft: RowDraft): Drafts {
  const texts: Record<string, string> = {};
  const before: Record<string, Cell> = {};
  const modes: Record<string, CellMode> = {};
  for (const cell of draft.cells) {
    const parsed = parseJson(cell.text);
    const unchanged = parsed.ok
      ? sameJson(parsed.value, cell.original ?? null)
      : cell.text === editableText(cell.original);
    if (unchanged) continue;
    texts[cell.column.identifier] = cell.text;
    before[cell.column.identifier] = cell.original ?? null;
    modes[cell.column.identifier] = cell.mode;
  }
  const index = drafts.findIndex((row) => row.rowId === draft.rowId);
  if (Object.keys(texts).length === 0) {
    return index === -1 ? drafts : drafts.filter((_, i) => i !== index);
  }
  const staged: StagedRow = { rowId: draft.rowId, baseVersion: draft.baseVersion, texts, before, modes };
  if (index === -1) return [...drafts, staged];
  if (sameStaged(drafts[index], staged)) return drafts;
  return drafts.map((row, i) => (i === index ? staged : row));
}

/** A row's draft with its staged cells in it, and the version its editing began from. */
export function applyStaged(draft: RowDraft, staged: StagedRow | undefined): RowDraft {
  if (!staged) return draft;
  let next: RowDraft = { ...draft, baseVersion: staged.baseVersion };
  for (const [identifier, text] of Object.entries(staged.texts))
    next = editCell(next, identifier, text, staged.modes?.[identifier] ?? "json");
  return next;
}

/** Whether the draft holds exactly what the drafts hold for its row. */
export function draftMatches(draft: RowDraft, staged: StagedRow | undefined): boolean {
  const mine = stageDraft([], draft)[0];
  if (mine === undefined || staged === undefined) return mine === staged;
  return sameStaged(mine, staged);
}

export function withoutCell(drafts: Drafts, rowId: string, identifier: string): Drafts {
  return drafts.flatMap((row) => {
    if (row.rowId !== rowId) return [row];
    const texts = { ...row.texts };
    const before = { ...row.before };
    const modes = { ...row.modes };
    delete texts[identifier];
    delete before[identifier];
    delete modes[identifier];
    return Object.keys(texts).length === 0 ? [] : [{ ...row, texts, before, modes }];
  });
}

export const withoutRows = (drafts: Drafts, rowIds: ReadonlySet<string>): Drafts =>
  drafts.filter((row) => !rowIds.has(row.rowId));

/** Every staged cell, row by row in column order; cells of columns removed since are left out. */
export function stagedCells(drafts: Drafts, columns: readonly DatasetColumn[]): StagedCell[] {
  return drafts.flatMap((row) =>
    columns.flatMap((column) => {
      const text = row.texts[column.identifier];
      if (text === undefined) return [];
      const parsed = parseJson(text);
      return [
        {
          rowId: row.rowId,
          column,
          before: row.before[column.identifier] ?? null,
          text,
          after: parsed.ok ? parsed.value : undefined,
        },
      ];
    }),
  );
}

/**
 * The batch edit that saves the drafts: one edit per row with its If-Match. Undefined while a staged
 * text is not JSON; the review names it.
 */
export function batchOf(
  drafts: Drafts,
  columns: readonly DatasetColumn[],
): UpdateDatasetRowsBody | undefined {
  const byId = new Map(columns.map((column) => [column.identifier, column]));
  const edits: UpdateDatasetRowsBody["edits"] = [];
  for (const row of drafts) {
    const edit: UpdateDatasetRowsBody["edits"][number] = { rowId: row.rowId, ifMatch: row.baseVersion };
    const custom: Record<string, Cell> = {};
    for (const [identifier, text] of Object.entries(row.texts)) {
      const column = byId.get(identifier);
      if (!column) continue;
      const parsed = parseJson(text);
      if (!parsed.ok) return undefined;
      if (column.source.kind === "builtin") edit[column.source.field] = parsed.value;
      else custom[identifier] = parsed.value;
    }
    if (Object.keys(custom).length > 0) edit.custom = custom;
    // A row whose only staged cells belong to columns removed since has nothing left to save.
    if (Object.keys(edit).length > 2) edits.push(edit);
  }
  return { edits };
}

function sameStaged(a: StagedRow | undefined, b: StagedRow): boolean {
  return (
    a !== undefined &&
    a.baseVersion === b.baseVersion &&
    sameJson(a.texts, b.texts) &&
    sameJson(a.before, b.before) &&
    sameJson(a.modes ?? {}, b.modes ?? {})
  );
}

/** The key the drafts are kept under in this browser, one per dataset and organisation. */
export const storageKey = (organizationId: string, projectSlug: string, datasetSlug: string) =>
  `svc:edits:${organizationId}:${projectSlug}:${datasetSlug}`;
