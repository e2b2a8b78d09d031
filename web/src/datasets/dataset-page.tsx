import type { DatasetRow } from "@svc/sdk";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { api } from "../api";
import { canWrite } from "../components/collect";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { useToasts } from "../components/toasts";
import { useAction } from "../components/use-action";
import { stageDraft, storageKey } from "../edits/edit-session";
import { EditSessionBar } from "../edits/edit-session-bar";
import { useEditSession } from "../edits/use-edit-session";
import { isFiltered } from "../rows/filters";
import type { RowDraft } from "../rows/row-draft";
import { RowGrid } from "../rows/row-grid";
import { RowHistory } from "../rows/row-history";
import { RowPanel } from "../rows/row-panel";
import { listQuery, type RowFilters, rowsKey, useRowPages } from "../rows/use-rows";

/** The most rows one selection holds (a delete or a copy by ids takes 10,000). */
const MAX_SELECTED = 10_000;

import { toggleChecked } from "../rows/selection";
import { useSignedIn } from "../session";
import { type DatasetDialog, DatasetDialogs } from "./dataset-dialogs";
import { DatasetActions, RowToolbar } from "./dataset-toolbar";
import { rowCountLabel } from "./row-count";
import { SelectionBar } from "./selection-bar";
import { useDatasetAddress } from "./use-dataset-address";
import { VersionBanner } from "./version-banner";

export function DatasetPage() {
  const {
    projectSlug,
    datasetSlug,
    pinnedVersion,
    selectedRowId,
    setRow,
    listFilters,
    setFilters,
    search,
    setSearch,
    offset,
    setFrom,
  } = useDatasetAddress();
  const session = useSignedIn();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const navigate = useNavigate();
  const readOnly = pinnedVersion !== undefined || !canWrite(session.role);

  const missingExpectedOutput = listFilters.missing.includes("expectedOutput");
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const anchor = useRef<string | undefined>(undefined);
  // Rows selected with "all matching" that the grid has not loaded: the bulk dialogs need their cells.
  const [fetched, setFetched] = useState<ReadonlyMap<string, DatasetRow>>(new Map());
  const selectingAll = useAction();
  const [editing, setEditing] = useState(false);
  const [dialog, setDialog] = useState<DatasetDialog | undefined>();
  const deletion = useAction();
  const [restoring, setRestoring] = useState<number | undefined>();

  const dataset = useQuery({
    queryKey: ["dataset", projectSlug, datasetSlug],
    queryFn: () => api.datasets.get(projectSlug, datasetSlug),
  });
  const filters: RowFilters = { ...listFilters, version: pinnedVersion, offset };
  const pages = useRowPages(projectSlug, datasetSlug, filters);
  const selectedInPages = pages.rows.find((row) => row.rowId === selectedRowId);
  // A deep link to a row not (yet) loaded in the grid: fetch it on its own.
  const linkedRow = useQuery({
    queryKey: ["row", projectSlug, datasetSlug, selectedRowId, pinnedVersion],
    queryFn: () =>
      api.datasets.getRow(
        projectSlug,
        datasetSlug,
        selectedRowId ?? "",
        pinnedVersion === undefined ? {} : { version: pinnedVersion },
      ),
    enabled: selectedRowId !== undefined && selectedInPages === undefined && !pages.isPending,
  });
  const selectedRow: DatasetRow | undefined = selectedInPages ?? linkedRow.data;

  const edits = useEditSession(storageKey(session.organization.id, projectSlug, datasetSlug));
  const updateEdits = edits.update;
  const onDraftChange = useCallback(
    (draft: RowDraft) => updateEdits((current) => stageDraft(current, draft)),
    [updateEdits],
  );
  const dirty = useMemo(() => new Set(edits.session.map((row) => row.rowId)), [edits.session]);
  const refresh = useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ["dataset", projectSlug, datasetSlug] }),
      queryClient.invalidateQueries({ queryKey: rowsKey(projectSlug, datasetSlug) }),
      queryClient.invalidateQueries({ queryKey: ["row", projectSlug, datasetSlug] }),
    ]);
  }, [queryClient, projectSlug, datasetSlug]);

  // Leaving with unsaved edits asks first.
  useEffect(() => {
    if (dirty.size === 0) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    addEventListener("beforeunload", warn);
    return () => removeEventListener("beforeunload", warn);
  }, [dirty.size]);

  const columns = dataset.data?.columns ?? [];
  const rowCount = (dataset.data as { rowCount?: number } | undefined)?.rowCount;
  const filtered = isFiltered(listFilters);
  const countLabel = rowCountLabel({
    shown: pages.rows.length,
    hasMore: pages.hasNextPage,
    rowCount,
    filtered,
    pinned: pinnedVersion !== undefined,
    offset,
  });

  // A failed refresh (the platform away for a moment) keeps the page it had; the banner says why.
  if (dataset.error && !dataset.data) return <ErrorMessage error={dataset.error} />;
  const base = `/projects/${projectSlug}/datasets/${datasetSlug}`;

  /** Every row the list's filters match, up to what one selection holds. */
  const selectAllMatching = () =>
    selectingAll.run(async () => {
      const found = new Map<string, DatasetRow>();
      let cursor: string | undefined;
      do {
        const page = await api.datasets.listRows(projectSlug, datasetSlug, {
          ...listQuery(filters),
          limit: 200,
          ...(cursor ? { cursor } : {}),
        });
        for (const row of page.items) found.set(row.rowId, row);
        cursor = page.hasMore && page.nextCursor ? page.nextCursor : undefined;
      } while (cursor && found.size < MAX_SELECTED);
      setFetched(found);
      setChecked(new Set([...found.keys()].slice(0, MAX_SELECTED)));
      if (cursor)
        toasts.show({
          kind: "info",
          message: `Selected the first ${MAX_SELECTED.toLocaleString()} matching rows, the most one change takes`,
        });
    });
  const loaded = new Map(pages.rows.map((row) => [row.rowId, row]));
  const checkedRows = [...checked].flatMap((rowId) => {
    const row = loaded.get(rowId) ?? fetched.get(rowId);
    return row ? [row] : [];
  });

  const deleteChecked = () =>
    deletion.run(async () => {
      const result = await api.datasets.deleteRows(projectSlug, datasetSlug, {
        selection: { mode: "selected", rowIds: [...checked] },
      });
      toasts.show({
        kind: "success",
        message: `Deleted ${result.deletedCount} rows as version ${result.version}`,
      });
      if (selectedRowId !== undefined && checked.has(selectedRowId)) setRow(undefined);
      setChecked(new Set());
      setDialog(undefined);
      await refresh();
    });

  return (
    <div className="dataset-page">
      <PageHeader
        title={dataset.data?.name ?? datasetSlug}
        crumbs={[
          { label: "Projects", to: "/projects" },
          { label: projectSlug, to: `/projects/${projectSlug}` },
        ]}
        actions={
          <DatasetActions
            base={base}
            exportHref={(format) =>
              `/v1/projects/${encodeURIComponent(projectSlug)}/datasets/${encodeURIComponent(datasetSlug)}/export?format=${format}${pinnedVersion === undefined ? "" : `&version=${pinnedVersion}`}`
            }
            version={dataset.data?.version}
            pinnedVersion={pinnedVersion}
            readOnly={readOnly}
            ready={dataset.data !== undefined}
            onOpen={setDialog}
          />
        }
      />
      {pinnedVersion !== undefined ? (
        <VersionBanner
          base={base}
          version={pinnedVersion}
          currentVersion={dataset.data?.version}
          canRestore={canWrite(session.role)}
          onRestore={() => setRestoring(pinnedVersion)}
        />
      ) : null}
      <RowToolbar
        search={search}
        onSearch={setSearch}
        filters={listFilters}
        columns={columns}
        onFilters={setFilters}
        status={pages.isPending ? "Loading rows…" : countLabel}
        onGo={setFrom}
      />
      {offset > 0 ? (
        <div className="banner" role="status">
          Showing the list from row {(offset + 1).toLocaleString()}.{" "}
          <button type="button" className="link-button" onClick={() => setFrom(1)}>
            Back to the first rows
          </button>
        </div>
      ) : null}
      {checked.size > 0 && !readOnly ? (
        <SelectionBar
          count={checked.size}
          offerAll={pages.hasNextPage && checked.size >= pages.rows.length}
          filtered={filtered}
          selectingAll={selectingAll}
          onSelectAll={() => void selectAllMatching()}
          onSetCell={() => setDialog("set-cell")}
          onCopy={() => setDialog("copy")}
          onDelete={() => setDialog("delete-rows")}
          onClear={() => setChecked(new Set())}
        />
      ) : null}
      {readOnly ? null : (
        <EditSessionBar
          projectSlug={projectSlug}
          datasetSlug={datasetSlug}
          columns={columns}
          session={edits.session}
          update={edits.update}
          onOpenRow={(rowId) => setRow(rowId)}
          onSaved={() => void refresh()}
        />
      )}
      {pages.error ? <ErrorMessage error={pages.error} /> : null}
      <div className={selectedRow ? "dataset-body with-panel" : "dataset-body"}>
        {pages.isPending || !dataset.data ? (
          <p className="page-status" role="status">
            Loading rows…
          </p>
        ) : pages.rows.length === 0 && !pages.hasNextPage ? (
          <div className="empty">
            {filtered ? (
              <p>No row matches. {missingExpectedOutput ? "Every row has an expected output." : ""}</p>
            ) : (
              <>
                <p>This dataset has no rows yet.</p>
                {readOnly ? null : (
                  <button
                    type="button"
                    className="button button-primary"
                    onClick={() => setDialog("add-row")}
                  >
                    Add the first row
                  </button>
                )}
              </>
            )}
          </div>
        ) : (
          <RowGrid
            columns={columns}
            rows={pages.rows}
            total={filtered || pinnedVersion !== undefined || offset > 0 ? undefined : rowCount}
            rowIndexOffset={offset}
            hasMore={pages.hasNextPage}
            loadingMore={pages.isFetchingNextPage}
            loadMore={() => void pages.fetchNextPage()}
            selectedRowId={selectedRowId}
            onSelect={(rowId) => {
              setEditing(false);
              setRow(rowId);
            }}
            onOpen={(rowId) => {
              setRow(rowId);
              setEditing(true);
            }}
            checked={checked}
            onToggleChecked={(rowId, range) => {
              setChecked((current) =>
                toggleChecked(
                  current,
                  rowId,
                  range,
                  anchor.current,
                  pages.rows.map((row) => row.rowId),
                ),
              );
              anchor.current = rowId;
            }}
            onToggleAll={() =>
              setChecked((current) =>
                pages.rows.length > 0 && pages.rows.every((row) => current.has(row.rowId))
                  ? new Set()
                  : new Set(pages.rows.map((row) => row.rowId)),
              )
            }
            selectable={!readOnly}
            dirty={dirty}
          />
        )}
        {selectedRow && dataset.data ? (
          <RowPanel
            key={selectedRow.rowId}
            projectSlug={projectSlug}
            datasetSlug={datasetSlug}
            row={selectedRow}
            columns={columns}
            readOnly={readOnly}
            focusOnOpen={editing}
            staged={edits.session.find((row) => row.rowId === selectedRow.rowId)}
            onDraftChange={onDraftChange}
            onClose={() => {
              setRow(undefined);
              document.querySelector<HTMLElement>(".grid-scroller")?.focus();
            }}
            onSaved={() => void refresh()}
            history={
              <RowHistory
                projectSlug={projectSlug}
                datasetSlug={datasetSlug}
                row={selectedRow}
                columns={columns}
                ownSessionId={session.sessionId}
                readOnly={readOnly}
                onRestored={() => void refresh()}
              />
            }
          />
        ) : selectedRowId && linkedRow.error ? (
          <ErrorMessage error={linkedRow.error} />
        ) : null}
      </div>
      {dataset.data ? (
        <DatasetDialogs
          open={dialog}
          onClose={() => setDialog(undefined)}
          projectSlug={projectSlug}
          datasetSlug={datasetSlug}
          readOnly={readOnly}
          columns={columns}
          currentVersion={dataset.data.version}
          checked={checked}
          checkedRows={checkedRows}
          restoring={restoring}
          onRestoreClose={() => setRestoring(undefined)}
          onRestored={() => {
            setRestoring(undefined);
            navigate(base);
          }}
          deletion={deletion}
          onDelete={() => void deleteChecked()}
          refresh={refresh}
          onRowAdded={setRow}
        />
      ) : null}
    </div>
  );
}
