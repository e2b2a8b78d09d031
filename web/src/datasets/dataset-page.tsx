import type { DatasetRow } from "@svc/sdk";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { api } from "../api";
import { canWrite } from "../components/collect";
import { ConfirmDialog } from "../components/dialog";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { useToasts } from "../components/toasts";
import { useAction } from "../components/use-action";
import { stageDraft, storageKey } from "../edits/edit-session";
import { EditSessionBar } from "../edits/edit-session-bar";
import { useEditSession } from "../edits/use-edit-session";
import { AddRowDialog } from "../rows/add-row-dialog";
import type { RowDraft } from "../rows/row-draft";
import { RowGrid } from "../rows/row-grid";
import { RowHistory } from "../rows/row-history";
import { RowPanel } from "../rows/row-panel";
import { type RowFilters, rowsKey, useRowPages } from "../rows/use-rows";
import { useSignedIn } from "../session";
import { RestoreDialog } from "../versions/restore-dialog";
import { ColumnsDialog } from "./columns-dialog";
import { ImportDialog } from "./import-dialog";

export function DatasetPage() {
  const { projectSlug = "", datasetSlug = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const session = useSignedIn();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const navigate = useNavigate();
  const versionParam = params.get("version");
  const pinnedVersion =
    versionParam !== null && /^\d+$/.test(versionParam) ? Number(versionParam) : undefined;
  const selectedRowId = params.get("row") ?? undefined;
  const readOnly = pinnedVersion !== undefined || !canWrite(session.role);

  const [search, setSearch] = useState("");
  const [debounced, setDebounced] = useState("");
  const [sortDirection, setSortDirection] = useState<"asc" | "desc">("desc");
  const [missingExpectedOutput, setMissingExpectedOutput] = useState(false);
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState(false);
  const [dialog, setDialog] = useState<"columns" | "add-row" | "delete-rows" | "import" | undefined>();
  const deletion = useAction();
  const [restoring, setRestoring] = useState<number | undefined>();

  useEffect(() => {
    const timer = setTimeout(() => setDebounced(search), 250);
    return () => clearTimeout(timer);
  }, [search]);

  const dataset = useQuery({
    queryKey: ["dataset", projectSlug, datasetSlug],
    queryFn: () => api.datasets.get(projectSlug, datasetSlug),
  });
  const filters: RowFilters = {
    search: debounced,
    sortDirection,
    missingExpectedOutput,
    version: pinnedVersion,
  };
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

  const setRow = useCallback(
    (rowId: string | undefined) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (rowId === undefined) next.delete("row");
          else next.set("row", rowId);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
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
  const filtered = debounced.trim() !== "" || missingExpectedOutput;
  const countLabel = useMemo(() => {
    const loaded = pages.rows.length.toLocaleString();
    if (!filtered && rowCount !== undefined && pinnedVersion === undefined)
      return `${rowCount.toLocaleString()} rows`;
    return pages.hasNextPage
      ? `${loaded}+ rows${filtered ? " match" : ""}`
      : `${loaded} ${pages.rows.length === 1 ? "row" : "rows"}${filtered ? " match" : ""}`;
  }, [pages.rows.length, pages.hasNextPage, rowCount, filtered, pinnedVersion]);

  if (dataset.error) return <ErrorMessage error={dataset.error} />;
  const base = `/projects/${projectSlug}/datasets/${datasetSlug}`;

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
          <>
            <span className="version-chip" aria-live="polite">
              Version <strong>{dataset.data?.version ?? "…"}</strong>
            </span>
            <Link to={`${base}/versions`} className="button button-quiet">
              Versions
            </Link>
            <ExportMenu
              href={(format) =>
                `/v1/projects/${encodeURIComponent(projectSlug)}/datasets/${encodeURIComponent(datasetSlug)}/export?format=${format}${pinnedVersion === undefined ? "" : `&version=${pinnedVersion}`}`
              }
              version={pinnedVersion}
            />
            {readOnly ? null : (
              <button
                type="button"
                className="button"
                onClick={() => setDialog("import")}
                disabled={!dataset.data}
              >
                Import
              </button>
            )}
            <button
              type="button"
              className="button"
              onClick={() => setDialog("columns")}
              disabled={!dataset.data}
            >
              Columns
            </button>
            {readOnly ? null : (
              <button
                type="button"
                className="button button-primary"
                onClick={() => setDialog("add-row")}
                disabled={!dataset.data}
              >
                Add row
              </button>
            )}
          </>
        }
      />
      {pinnedVersion !== undefined ? (
        <div className="banner" role="status">
          You are looking at version {pinnedVersion}, read-only.{" "}
          <Link to={base}>Back to the current version</Link>
          {dataset.data && pinnedVersion < dataset.data.version ? (
            <>
              {" · "}
              <Link to={`${base}/diff?from=${pinnedVersion}&to=${dataset.data.version}`}>
                What changed since
              </Link>
              {canWrite(session.role) ? (
                <>
                  {" · "}
                  <button type="button" className="link-button" onClick={() => setRestoring(pinnedVersion)}>
                    Restore this version
                  </button>
                </>
              ) : null}
            </>
          ) : null}
        </div>
      ) : null}
      <div className="toolbar">
        <input
          type="search"
          className="search"
          aria-label="Search rows"
          placeholder="Search cell text"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <button
          type="button"
          className={missingExpectedOutput ? "chip chip-on" : "chip"}
          aria-pressed={missingExpectedOutput}
          onClick={() => setMissingExpectedOutput((on) => !on)}
        >
          Missing expected output
        </button>
        <button
          type="button"
          className="button button-quiet"
          onClick={() => setSortDirection((direction) => (direction === "desc" ? "asc" : "desc"))}
          aria-label={`Sort by creation time, ${sortDirection === "desc" ? "newest" : "oldest"} first; change`}
        >
          {sortDirection === "desc" ? "Newest first" : "Oldest first"}
        </button>
        <span className="row-count" role="status">
          {pages.isPending ? "Loading rows…" : countLabel}
        </span>
        {checked.size > 0 && !readOnly ? (
          <button type="button" className="button button-danger" onClick={() => setDialog("delete-rows")}>
            Delete {checked.size} {checked.size === 1 ? "row" : "rows"}
          </button>
        ) : null}
      </div>
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
            total={filtered || pinnedVersion !== undefined ? undefined : rowCount}
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
            onToggleChecked={(rowId) =>
              setChecked((current) => {
                const next = new Set(current);
                if (!next.delete(rowId)) next.add(rowId);
                return next;
              })
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
        <>
          <ColumnsDialog
            open={dialog === "columns"}
            projectSlug={projectSlug}
            datasetSlug={datasetSlug}
            readOnly={readOnly}
            onClose={() => setDialog(undefined)}
            onChanged={refresh}
          />
          <AddRowDialog
            open={dialog === "add-row"}
            projectSlug={projectSlug}
            datasetSlug={datasetSlug}
            columns={columns}
            onClose={() => setDialog(undefined)}
            onAdded={async (rowId, version) => {
              setDialog(undefined);
              toasts.show({ kind: "success", message: `Added row ${rowId} as version ${version}` });
              await refresh();
              setRow(rowId);
            }}
          />
          <ImportDialog
            open={dialog === "import"}
            projectSlug={projectSlug}
            datasetSlug={datasetSlug}
            columns={columns}
            onClose={() => setDialog(undefined)}
            onImported={(job) => {
              if (job.version !== undefined)
                toasts.show({ kind: "success", message: `Imported the file as version ${job.version}` });
              void refresh();
            }}
          />
          <RestoreDialog
            projectSlug={projectSlug}
            datasetSlug={datasetSlug}
            version={restoring}
            onClose={() => setRestoring(undefined)}
            onRestored={() => {
              setRestoring(undefined);
              navigate(base);
            }}
          />
          <ConfirmDialog
            title={`Delete ${checked.size} ${checked.size === 1 ? "row" : "rows"}?`}
            open={dialog === "delete-rows"}
            confirmLabel="Delete rows"
            busy={deletion.busy}
            body={
              <>
                <p>
                  The rows leave the current version as one new version; earlier versions keep them, and
                  restoring one brings them back.
                </p>
                {deletion.error ? <ErrorMessage error={deletion.error} /> : null}
              </>
            }
            onClose={() => setDialog(undefined)}
            onConfirm={() => void deleteChecked()}
          />
        </>
      ) : null}
    </div>
  );
}

/** Export the dataset, at the version being viewed, as a file the browser downloads. */
function ExportMenu({
  href,
  version,
}: {
  href: (format: "csv" | "jsonl") => string;
  version: number | undefined;
}) {
  return (
    <details className="menu">
      <summary className="button button-quiet">Export</summary>
      <div className="menu-items">
        <a href={href("csv")} download>
          CSV{version === undefined ? "" : ` at version ${version}`}
        </a>
        <a href={href("jsonl")} download>
          JSONL{version === undefined ? "" : ` at version ${version}`}
        </a>
      </div>
    </details>
  );
}
