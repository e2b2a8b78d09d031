import type { Cell, DatasetColumn, DatasetRow } from "@svc/sdk";
import { useInfiniteQuery, useMutation } from "@tanstack/react-query";
import { api } from "../api";
import { CellText } from "../components/cell-text";
import { ErrorMessage } from "../components/errors";
import { LoadMore } from "../components/load-more";
import { useToasts } from "../components/toasts";
import { actorLabel, type CellChange, cellChanges, type RowCells } from "../versions/changes";
import { cellOf, sameJson } from "./cells";
import { rowHistoryQuery } from "./queries";

/**
 * A row's own history, newest first: each version that touched it, who made it, and which cells it
 * changed from what to what; "Restore" puts one cell back to its value before that change, as an edit
 * of that cell alone with the row's version as If-Match.
 */
export function RowHistory({
  projectSlug,
  datasetSlug,
  row,
  columns,
  ownActorId,
  readOnly,
  onRestored,
}: {
  projectSlug: string;
  datasetSlug: string;
  row: DatasetRow;
  columns: readonly DatasetColumn[];
  ownActorId: string;
  readOnly: boolean;
  onRestored(version: number): void;
}) {
  const toasts = useToasts();
  const history = useInfiniteQuery(rowHistoryQuery(projectSlug, datasetSlug, row.rowId, row.version));
  const entries = history.data?.pages.flatMap((page) => page.items) ?? [];

  const restore = useMutation({
    mutationFn: ({ change }: { change: CellChange; key: string }) => {
      const value: Cell = change.before ?? null;
      const body =
        change.column.source.kind === "builtin"
          ? { [change.column.source.field]: value }
          : { custom: { [change.column.identifier]: value } };
      return api.datasets.updateRow(projectSlug, datasetSlug, row.rowId, body, { ifMatch: row.version });
    },
    onSuccess: (saved, { change }) => {
      toasts.show({
        kind: "success",
        message: `Restored ${change.column.name} of row ${row.rowId} as version ${saved.version}`,
      });
      onRestored(saved.version);
    },
  });
  /** The cell being put back, as `version:column`. */
  const busy = restore.isPending ? restore.variables.key : undefined;
  const error = restore.error;
  const restoreCell = (change: CellChange, version: number) =>
    restore.mutate({ change, key: `${version}:${change.column.identifier}` });

  return (
    <section className="row-history" aria-labelledby="row-history-title">
      <h3 id="row-history-title">History</h3>
      {history.error ? <ErrorMessage error={history.error} /> : null}
      {error ? <ErrorMessage error={error} /> : null}
      {history.isPending ? (
        <p className="muted" role="status">
          Loading history…
        </p>
      ) : (
        <ol aria-label={`History of row ${row.rowId}`}>
          {entries.map((entry, index) => {
            const previous = entries[index + 1];
            // What an entry changed needs the entry before it, which the next page brings.
            if (previous === undefined && history.hasNextPage) return null;
            const before: RowCells | null = previous?.cells ?? null;
            const after: RowCells | null = entry.cells;
            const changes = cellChanges(columns, before, after);
            return (
              <li key={entry.versionId} className="history-entry">
                <div className="history-entry-head">
                  <strong>Version {entry.version}</strong>
                  <span>{describe(entry.operation, after === null, before === null)}</span>
                  <span className="actor" title={`${entry.actor.kind} ${entry.actor.id}`}>
                    by {actorLabel(entry.actor, ownActorId)}
                  </span>
                  <time className="muted" dateTime={entry.createdAt}>
                    {new Date(entry.createdAt).toLocaleString()}
                  </time>
                </div>
                {after === null || before === null
                  ? null
                  : changes.map((change) => {
                      const key = `${entry.version}:${change.column.identifier}`;
                      return (
                        <div key={change.column.identifier} className="history-change">
                          <div className="values">
                            <strong>{change.column.name}</strong>: <CellText value={change.before} /> →{" "}
                            <CellText value={change.after} />
                          </div>
                          {readOnly ||
                          sameJson(change.before ?? null, cellOf(row, change.column) ?? null) ? null : (
                            <button
                              type="button"
                              className="button button-quiet"
                              disabled={busy !== undefined}
                              aria-label={`Restore ${change.column.name} to its value before version ${entry.version}`}
                              onClick={() => restoreCell(change, entry.version)}
                            >
                              {busy === key ? "Restoring…" : "Restore"}
                            </button>
                          )}
                        </div>
                      );
                    })}
              </li>
            );
          })}
        </ol>
      )}
      <LoadMore pages={history} label="Older changes" className="button button-quiet" />
    </section>
  );
}

function describe(operation: string, deleted: boolean, created: boolean): string {
  if (deleted) return "deleted the row";
  if (created) return operation === "restore" ? "brought the row back" : "created the row";
  return operation === "restore" ? "restored cells" : "changed cells";
}
