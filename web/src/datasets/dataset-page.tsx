import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { mayCall } from "../access";
import { api, ownActorIdOf } from "../api";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { useToasts } from "../components/toasts";
import { stageDraft, stagedCells, storageKey } from "../edits/drafts";
import { DraftsBar } from "../edits/drafts-bar";
import { LeaveGuard } from "../edits/leave-guard";
import { useDrafts } from "../edits/use-drafts";
import { isFiltered } from "../rows/filters";
import { LayoutMenu } from "../rows/layout-menu";
import type { RowDraft } from "../rows/row-draft";
import { RowHistory } from "../rows/row-history";
import { RowPanel } from "../rows/row-panel";
import { useGridLayout } from "../rows/use-grid-layout";
import { useRowCount } from "../rows/use-row-count";
import { type RowFilters, useRowPages } from "../rows/use-rows";
import { useSignedIn } from "../session";
import { plural } from "../words";
import { type DatasetDialog, DatasetDialogs } from "./dataset-dialogs";
import { DatasetRows } from "./dataset-rows";
import { DatasetActions, RowToolbar } from "./dataset-toolbar";
import { afterRowsWrite, datasetQuery, versionQuery } from "./queries";
import { rowCountLabel } from "./row-count";
import { SelectionBar } from "./selection-bar";
import { useCheckedRows } from "./use-checked-rows";
import { useDatasetAddress } from "./use-dataset-address";
import { useFollowDataset } from "./use-dataset-events";
import { useOpenRow } from "./use-open-row";
import { VersionBanner } from "./version-banner";

export function DatasetPage() {
  const address = useDatasetAddress();
  const { projectSlug, datasetSlug, pinnedVersion, selectedRowId, setRow, listFilters, offset } = address;
  const session = useSignedIn();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const navigate = useNavigate();
  const readOnly = pinnedVersion !== undefined || !mayCall(session.role, "updateDatasetRow");

  const [editing, setEditing] = useState(false);
  const [dialog, setDialog] = useState<DatasetDialog | undefined>();
  const [restoring, setRestoring] = useState<number | undefined>();

  const dataset = useQuery(datasetQuery(projectSlug, datasetSlug));
  const filters: RowFilters = { ...listFilters, version: pinnedVersion };
  // The count of the version shown: the dataset's own, or the pinned version's (version 0 is empty).
  const pinnedRecord = useQuery({
    ...versionQuery(projectSlug, datasetSlug, pinnedVersion),
    enabled: pinnedVersion !== undefined && pinnedVersion > 0,
  });
  const rowCount =
    pinnedVersion === undefined ? dataset.data?.rows : pinnedVersion === 0 ? 0 : pinnedRecord.data?.rows;
  const filtered = isFiltered(listFilters);
  // A filtered list's length comes from its count; until it does, the grid spans what its pages show.
  const matching = useRowCount(projectSlug, datasetSlug, filters, {
    filtered,
    version: pinnedVersion ?? dataset.data?.version,
  });
  const pages = useRowPages(projectSlug, datasetSlug, filters, {
    total: filtered ? matching : rowCount,
    jumpedTo: offset > 0 ? offset : undefined,
  });
  // Each "go to row" brings its position to the top, even the same position again.
  const [jumps, setJumps] = useState(0);
  const jump = jumps === 0 && offset === 0 ? undefined : { index: offset, serial: jumps };
  const layout = useGridLayout(dataset.data?.id);
  const openRow = useOpenRow(projectSlug, datasetSlug, selectedRowId, pinnedVersion, pages);
  const selectedRow = openRow.row;
  const selection = useCheckedRows(projectSlug, datasetSlug, filters, pages.rows);
  const { checked } = selection;

  // What the page has in view, for the live changes: a version naming none of it needs no read.
  const inView = useRef({ rows: pages.rows, selectedRowId });
  useEffect(() => {
    inView.current = { rows: pages.rows, selectedRowId };
  });
  const isLoaded = useCallback(
    (rowId: string) =>
      rowId === inView.current.selectedRowId || inView.current.rows.some((row) => row.rowId === rowId),
    [],
  );
  const rowChanges = useFollowDataset(projectSlug, datasetSlug, {
    pinned: pinnedVersion !== undefined,
    since: dataset.data?.version,
    isLoaded,
  });
  // The versions this page wrote: its own saves are no news to its editor.
  const ownVersions = useRef(new Set<number>());
  const wrote = useCallback((version: number) => {
    ownVersions.current.add(version);
  }, []);

  const edits = useDrafts(storageKey(session.organization.id, projectSlug, datasetSlug));
  const updateEdits = edits.update;
  const onDraftChange = useCallback(
    (draft: RowDraft) => updateEdits((current) => stageDraft(current, draft)),
    [updateEdits],
  );
  const drafts = useMemo(() => new Map(edits.drafts.map((row) => [row.rowId, row.texts])), [edits.drafts]);
  const refresh = useCallback(async () => {
    await afterRowsWrite(queryClient, projectSlug, datasetSlug);
  }, [queryClient, projectSlug, datasetSlug]);

  const deletion = useMutation({
    mutationFn: (rowIds: ReadonlySet<string>) =>
      api.datasets.deleteRows(projectSlug, datasetSlug, {
        selection: { mode: "selected", rowIds: [...rowIds] },
      }),
    onSuccess: async (result, rowIds) => {
      wrote(result.version);
      toasts.show({
        kind: "success",
        message: `Deleted ${plural(result.deletedCount, "row")} as version ${result.version}`,
      });
      if (selectedRowId !== undefined && rowIds.has(selectedRowId)) setRow(undefined);
      selection.clear();
      setDialog(undefined);
      await refresh();
    },
  });
  const deleteChecked = () => deletion.mutate(checked);

  const columns = dataset.data?.columns ?? [];
  const countLabel = rowCountLabel({ known: pages.known, exact: pages.exact, filtered });

  // A failed refresh (the platform away for a moment) keeps the page it had; the banner says why.
  if (dataset.error && !dataset.data) return <ErrorMessage error={dataset.error} />;
  const base = `/projects/${projectSlug}/datasets/${datasetSlug}`;

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
          canRestore={mayCall(session.role, "restoreDatasetVersion")}
          onRestore={() => setRestoring(pinnedVersion)}
        />
      ) : null}
      <RowToolbar
        search={address.search}
        onSearch={address.setSearch}
        filters={listFilters}
        columns={columns}
        onFilters={address.setFilters}
        status={pages.isPending ? "Loading rows…" : countLabel}
        onGo={(position) => {
          address.setFrom(position);
          setJumps((serial) => serial + 1);
        }}
        layoutMenu={<LayoutMenu columns={columns} layout={layout.layout} onChange={layout.update} />}
      />
      {checked.size > 0 && !readOnly ? (
        <SelectionBar
          count={checked.size}
          offerAll={pages.length > pages.rows.length && checked.size >= pages.rows.length}
          filtered={filtered}
          selectingAll={selection.selectingAll}
          onSelectAll={selection.selectAllMatching}
          onSetCell={() => setDialog("set-cell")}
          onCopy={() => setDialog("copy")}
          onDelete={() => setDialog("delete-rows")}
          onClear={selection.clear}
        />
      ) : null}
      {readOnly ? null : (
        <DraftsBar
          projectSlug={projectSlug}
          datasetSlug={datasetSlug}
          columns={columns}
          drafts={edits.drafts}
          unstored={edits.unstored}
          update={edits.update}
          onOpenRow={(rowId) => setRow(rowId)}
          onSaved={(version) => {
            wrote(version);
            void refresh();
          }}
        />
      )}
      <LeaveGuard
        edits={stagedCells(edits.drafts, columns).length}
        rows={edits.drafts.length}
        unstored={edits.unstored !== undefined}
      />
      {pages.error ? <ErrorMessage error={pages.error} /> : null}
      <div className={selectedRow ? "dataset-body with-panel" : "dataset-body"}>
        <DatasetRows
          loading={pages.isPending || !dataset.data}
          filtered={filtered}
          missingExpectedOutput={listFilters.missing.includes("expectedOutput")}
          onAddFirstRow={readOnly ? undefined : () => setDialog("add-row")}
          onImportFirstRows={readOnly ? undefined : () => setDialog("import")}
          grid={{
            columns,
            length: pages.length,
            exact: pages.exact,
            rowAt: pages.rowAt,
            indexOf: pages.indexOf,
            rows: pages.rows,
            onView: pages.onView,
            jump,
            selectedRowId,
            onSelect: (rowId) => {
              setEditing(false);
              setRow(rowId);
            },
            onOpen: (rowId) => {
              setRow(rowId);
              setEditing(true);
            },
            checked,
            onToggleChecked: selection.toggle,
            onToggleAll: selection.toggleAll,
            selectable: !readOnly,
            drafts,
            layout: layout.layout,
            onLayout: layout.update,
          }}
        />
        {/* The editor starts from what the session holds for the row: it waits until that is read. */}
        {selectedRow && dataset.data && edits.loaded ? (
          <RowPanel
            key={selectedRow.rowId}
            projectSlug={projectSlug}
            datasetSlug={datasetSlug}
            row={selectedRow}
            columns={columns}
            readOnly={readOnly}
            focusOnOpen={editing}
            staged={edits.drafts.find((row) => row.rowId === selectedRow.rowId)}
            onDraftChange={onDraftChange}
            onClose={() => {
              setRow(undefined);
              document.querySelector<HTMLElement>(".grid-scroller")?.focus();
            }}
            onSaved={(version) => {
              wrote(version);
              void refresh();
            }}
            change={rowChanges.get(selectedRow.rowId)}
            ownVersions={ownVersions.current}
            ownActorId={ownActorIdOf(session)}
            history={
              <RowHistory
                projectSlug={projectSlug}
                datasetSlug={datasetSlug}
                row={selectedRow}
                columns={columns}
                ownActorId={ownActorIdOf(session)}
                readOnly={readOnly}
                onRestored={() => void refresh()}
              />
            }
          />
        ) : selectedRowId && openRow.error ? (
          <ErrorMessage error={openRow.error} />
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
          checkedRows={selection.checkedRows}
          restoring={restoring}
          onRestoreClose={() => setRestoring(undefined)}
          onRestored={() => {
            setRestoring(undefined);
            navigate(base);
          }}
          deletion={deletion}
          onDelete={deleteChecked}
          refresh={refresh}
          onRowAdded={setRow}
        />
      ) : null}
    </div>
  );
}
