import type { DatasetColumn } from "@svc/sdk";
import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import { SearchBox } from "../components/search-box";
import type { ListFilters } from "../rows/filters";
import type { DatasetDialog } from "./dataset-dialogs";
import { FilterChips } from "./filter-chips";

/**
 * Above the grid: the search box, the filters, the sort, how many rows are shown and a jump to a row.
 * The filters live in the page's address; this only shows them and asks for changes.
 */
export function RowToolbar({
  search,
  onSearch,
  filters,
  columns,
  onFilters,
  status,
  onGo,
  layoutMenu,
}: {
  search: string;
  onSearch(search: string): void;
  filters: ListFilters;
  columns: readonly DatasetColumn[];
  onFilters(change: (filters: ListFilters) => ListFilters): void;
  /** What the list shows, such as "1,204 rows" or "Loading rows…". */
  status: string;
  onGo(position: number): void;
  /** The grid's layout: its columns' widths, hidden and pinned ones. */
  layoutMenu: ReactNode;
}) {
  const missingExpectedOutput = filters.missing.includes("expectedOutput");
  return (
    <div className="toolbar">
      <SearchBox label="Search rows" placeholder="Search cell text" value={search} onChange={onSearch} />
      <button
        type="button"
        className={missingExpectedOutput ? "chip chip-on" : "chip"}
        aria-pressed={missingExpectedOutput}
        onClick={() =>
          onFilters((current) => ({
            ...current,
            missing: missingExpectedOutput
              ? current.missing.filter((id) => id !== "expectedOutput")
              : [...current.missing, "expectedOutput"],
          }))
        }
      >
        Missing expected output
      </button>
      <FilterChips filters={filters} columns={columns} onChange={(next) => onFilters(() => next)} />
      <button
        type="button"
        className="button button-quiet"
        onClick={() =>
          onFilters((current) => ({
            ...current,
            sortDirection: current.sortDirection === "desc" ? "asc" : "desc",
          }))
        }
        aria-label={`Sort by creation time, ${filters.sortDirection === "desc" ? "newest" : "oldest"} first; change`}
      >
        {filters.sortDirection === "desc" ? "Newest first" : "Oldest first"}
      </button>
      <span className="row-count" role="status">
        {status}
      </span>
      <GoToRow onGo={onGo} />
      {layoutMenu}
    </div>
  );
}

/** The page header's actions: the version, the way to the others, export, import, columns, a new row. */
export function DatasetActions({
  base,
  exportHref,
  version,
  pinnedVersion,
  readOnly,
  ready,
  onOpen,
}: {
  /** The dataset's address in the application. */
  base: string;
  exportHref(format: "csv" | "jsonl" | "parquet"): string;
  /** The dataset's current version, once known. */
  version: number | undefined;
  /** The earlier version being viewed, if any. */
  pinnedVersion: number | undefined;
  readOnly: boolean;
  /** The dataset has loaded: the dialogs can open. */
  ready: boolean;
  onOpen(dialog: DatasetDialog): void;
}) {
  return (
    <>
      <span className="version-chip" aria-live="polite">
        Version <strong>{version ?? "…"}</strong>
      </span>
      <Link to={`${base}/versions`} className="button button-quiet">
        Versions
      </Link>
      <Link to={`${base}/experiments`} className="button button-quiet">
        Experiments
      </Link>
      <ExportMenu href={exportHref} version={pinnedVersion} />
      {readOnly ? null : (
        <button type="button" className="button" onClick={() => onOpen("import")} disabled={!ready}>
          Import
        </button>
      )}
      <button type="button" className="button" onClick={() => onOpen("columns")} disabled={!ready}>
        Columns
      </button>
      {readOnly ? null : (
        <button
          type="button"
          className="button button-primary"
          onClick={() => onOpen("add-row")}
          disabled={!ready}
        >
          Add row
        </button>
      )}
    </>
  );
}

/** Export the dataset, at the version being viewed, as a file the browser downloads. */
function ExportMenu({
  href,
  version,
}: {
  href: (format: "csv" | "jsonl" | "parquet") => string;
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
        <a href={href("parquet")} download>
          Parquet{version === undefined ? "" : ` at version ${version}`}
        </a>
      </div>
    </details>
  );
}

/** "Go to row N": the grid scrolled to that position, whose rows are read from the platform there. */
function GoToRow({ onGo }: { onGo(position: number): void }) {
  const [text, setText] = useState("");
  return (
    <form
      className="go-to-row"
      onSubmit={(event) => {
        event.preventDefault();
        const position = Number(text.replaceAll(/[\s,_]/g, ""));
        if (Number.isInteger(position) && position >= 1 && position <= 10_000_001) onGo(position);
      }}
    >
      <input
        className="input"
        inputMode="numeric"
        aria-label="Go to row number"
        placeholder="Go to row"
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
    </form>
  );
}
