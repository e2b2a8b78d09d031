import type { DatasetColumn } from "@svc/sdk";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { CellText } from "../components/cell-text";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { LoadMore } from "../components/load-more";
import { Table } from "../components/table";
import { columnsQuery } from "../datasets/queries";
import { plural } from "../words";
import { type CellChange, cellChanges, type RowCells } from "./changes";
import { diffQuery } from "./queries";

/**
 * What changed between two versions, row by row and cell by cell: added rows in green, removed ones
 * in red, modified ones with only their changed cells, before and after; paged, so a diff of a
 * million rows opens as fast as one of ten.
 */
export function DiffPage() {
  const { projectSlug = "", datasetSlug = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const from = versionParam(params.get("from"));
  const to = versionParam(params.get("to"));
  const base = `/projects/${projectSlug}/datasets/${datasetSlug}`;

  const columns = useQuery(columnsQuery(projectSlug, datasetSlug));
  const valid = from !== undefined && to !== undefined && from <= to;
  const diff = useInfiniteQuery({ ...diffQuery(projectSlug, datasetSlug, from, to), enabled: valid });
  const entries = diff.data?.pages.flatMap((page) => page.items) ?? [];
  const counts = { added: 0, removed: 0, modified: 0 };
  for (const entry of entries) counts[entry.change] += 1;

  return (
    <>
      <PageHeader
        title={valid ? `Changes from version ${from} to ${to}` : "Compare versions"}
        crumbs={[
          { label: "Projects", to: "/projects" },
          { label: projectSlug, to: `/projects/${projectSlug}` },
          { label: datasetSlug, to: base },
          { label: "Versions", to: `${base}/versions` },
        ]}
      />
      <CompareForm from={from} to={to} onCompare={(a, b) => setParams({ from: String(a), to: String(b) })} />
      {!valid ? (
        <p className="page-status">
          {from !== undefined && to !== undefined
            ? "The first version must not be later than the second."
            : "Choose two versions to compare."}
        </p>
      ) : diff.error || columns.error ? (
        <ErrorMessage error={diff.error ?? columns.error} />
      ) : diff.isPending || columns.isPending ? (
        <p className="page-status" role="status">
          Comparing…
        </p>
      ) : entries.length === 0 ? (
        <div className="empty">
          <p>
            Versions {from} and {to} hold the same rows with the same cells.
          </p>
        </div>
      ) : (
        <>
          <p className="diff-summary" role="status">
            {diff.hasNextPage ? "At least " : ""}
            {plural(counts.added, "row")} added, {plural(counts.modified, "row")} modified,{" "}
            {plural(counts.removed, "row")} removed
            {diff.hasNextPage ? " so far" : ""}. <Link to={`${base}?version=${to}`}>Open version {to}</Link>
          </p>
          <ol className="diff-list" aria-label={`Rows changed from version ${from} to ${to}`}>
            {entries.map((entry) => (
              <DiffEntry
                key={entry.rowId}
                rowId={entry.rowId}
                change={entry.change}
                before={entry.before}
                after={entry.after}
                columns={columns.data?.columns ?? []}
                rowLink={`${base}?version=${entry.change === "removed" ? from : to}&row=${encodeURIComponent(entry.rowId)}`}
              />
            ))}
          </ol>
          <LoadMore pages={diff} label="More changes" />
        </>
      )}
    </>
  );
}

function CompareForm({
  from,
  to,
  onCompare,
}: {
  from: number | undefined;
  to: number | undefined;
  onCompare(from: number, to: number): void;
}) {
  const [a, setA] = useState(from === undefined ? "" : String(from));
  const [b, setB] = useState(to === undefined ? "" : String(to));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const left = versionParam(a);
    const right = versionParam(b);
    if (left === undefined || right === undefined) return;
    onCompare(Math.min(left, right), Math.max(left, right));
  };
  return (
    <form className="toolbar compare-form" onSubmit={submit}>
      <VersionField label="From version" value={a} onChange={setA} />
      <VersionField label="to version" value={b} onChange={setB} />
      <button type="submit" className="button">
        Compare
      </button>
    </form>
  );
}

function DiffEntry({
  rowId,
  change,
  before,
  after,
  columns,
  rowLink,
}: {
  rowId: string;
  change: "added" | "removed" | "modified";
  before: RowCells | null;
  after: RowCells | null;
  columns: readonly DatasetColumn[];
  rowLink: string;
}) {
  const changes = cellChanges(columns, before, after);
  return (
    <li className={`diff-entry diff-${change}`}>
      <div className="diff-entry-head">
        <span className={`badge badge-${change}`}>{change}</span>
        <Link to={rowLink}>
          Row <code>{rowId}</code>
        </Link>
      </div>
      <Table
        caption={change === "modified" ? `Changed cells of row ${rowId}` : `Cells of row ${rowId}`}
        className="diff-cells"
        columns={[
          "Cell",
          ...(change === "added" ? [] : ["Before"]),
          ...(change === "removed" ? [] : ["After"]),
        ]}
      >
        {changes.map((cell) => (
          <CellRow key={cell.column.identifier} cell={cell} change={change} />
        ))}
        {changes.length === 0 ? (
          <tr>
            <td colSpan={3} className="muted">
              No cell of a shown column changed.
            </td>
          </tr>
        ) : null}
      </Table>
    </li>
  );
}

function CellRow({ cell, change }: { cell: CellChange; change: "added" | "removed" | "modified" }) {
  return (
    <tr>
      <th scope="row">
        {cell.column.name}
        {cell.column.removed ? <span className="muted"> (removed)</span> : null}
      </th>
      {change === "added" ? null : (
        <td className="diff-before">
          <CellText value={cell.before} />
        </td>
      )}
      {change === "removed" ? null : (
        <td className="diff-after">
          <CellText value={cell.after} />
        </td>
      )}
    </tr>
  );
}

/** A version number typed in, with its label before it. */
function VersionField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
}) {
  return (
    <label>
      {label}{" "}
      <input
        className="input version-input"
        inputMode="numeric"
        pattern="[0-9]+"
        required
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}

function versionParam(value: string | null): number | undefined {
  return value !== null && /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : undefined;
}
