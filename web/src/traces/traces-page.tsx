import type { Trace } from "@svc/sdk";
import { useInfiniteQuery } from "@tanstack/react-query";
import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { mayCall } from "../access";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { LoadMore } from "../components/load-more";
import { numeric, Table } from "../components/table";
import { compact } from "../rows/cells";
import { useSignedIn } from "../session";
import { formatCost } from "./gen-ai";
import { countOf, ImportTracesDialog, type TraceSelection } from "./import-traces-dialog";
import { tracesQuery } from "./queries";
import {
  instantOfLocal,
  localInputValue,
  paramsOf,
  queryFrom,
  TEXT_FILTERS,
  type TraceQuery,
  type TraceSort,
  traceCount,
  traceFilters,
  traceSorts,
} from "./trace-query";
import { TracesTabs } from "./traces-tabs";

const SEARCH_PAUSE_MS = 300;

/**
 * The project's traces, newest first, with the filters curators use; select some (or every one that
 * matches) and add them to a dataset as rows that link back to their traces.
 */
export function TracesPage() {
  const { projectSlug = "" } = useParams();
  const session = useSignedIn();
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => queryFrom(params), [params]);
  const filters = useMemo(() => traceFilters(query), [query]);
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const [importing, setImporting] = useState(false);
  const clearSelection = () => {
    setChecked(new Set());
    setAllMatching(false);
  };
  const search = (text: string) => {
    setParams(paramsOf({ ...queryFrom(params), text }), { replace: true });
    clearSelection();
  };

  const traces = useInfiniteQuery(tracesQuery(projectSlug, filters, query.sort));
  const items = traces.data?.pages.flatMap((page) => page.items) ?? [];
  const selection: TraceSelection = allMatching
    ? { by: "filters", filters }
    : { by: "ids", ids: items.filter((t) => checked.has(t.traceId)).map((t) => t.traceId) };
  const previewTraces = allMatching
    ? items.slice(0, 5)
    : items.filter((t) => checked.has(t.traceId)).slice(0, 5);

  const applyFilters = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "");
    const next = paramsOf({
      text: query.text,
      ...Object.fromEntries(TEXT_FILTERS.map((name) => [name, text(name)])),
      errors: form.get("errors") === "on",
      from: instantOfLocal(text("from")),
      to: instantOfLocal(text("to")),
      sort: text("sort") as TraceSort,
    });
    setParams(next, { replace: true });
    clearSelection();
  };
  const toggle = (traceId: string) =>
    setChecked((current) => {
      const next = new Set(current);
      if (!next.delete(traceId)) next.add(traceId);
      return next;
    });
  const everyLoaded = items.length > 0 && items.every((t) => checked.has(t.traceId));

  return (
    <>
      <PageHeader
        title="Traces"
        crumbs={[
          { label: "Projects", to: "/projects" },
          { label: projectSlug, to: `/projects/${projectSlug}` },
        ]}
      />
      <TracesTabs projectSlug={projectSlug} />
      <SearchBox value={query.text} onSearch={search} />
      <form className="toolbar trace-filters" onSubmit={applyFilters} key={params.toString()}>
        <input
          name="name"
          className="search"
          aria-label="Root span name contains"
          placeholder="Root span name contains"
          defaultValue={query.name}
        />
        <input name="tag" aria-label="Tag" placeholder="Tag" defaultValue={query.tag} />
        <input name="model" aria-label="Model" placeholder="Model" defaultValue={query.model} />
        <input name="session" aria-label="Session id" placeholder="Session id" defaultValue={query.session} />
        <input name="user" aria-label="User id" placeholder="User id" defaultValue={query.user} />
        <label className="inline-field">
          From
          <input type="datetime-local" name="from" defaultValue={localInputValue(query.from)} />
        </label>
        <label className="inline-field">
          To
          <input type="datetime-local" name="to" defaultValue={localInputValue(query.to)} />
        </label>
        <label className="checkbox">
          <input type="checkbox" name="errors" defaultChecked={query.errors} /> With errors
        </label>
        <label className="inline-field">
          Order
          <select name="sort" defaultValue={query.sort}>
            {Object.entries(traceSorts).map(([value, sort]) => (
              <option key={value} value={value}>
                {sort.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button">
          Filter
        </button>
      </form>
      {checked.size > 0 || allMatching ? (
        <section className="selection-bar" aria-label="Selected traces">
          <strong>
            {allMatching
              ? filters.length > 0
                ? "Every matching trace selected"
                : "Every trace selected"
              : `${countOf(selection)} selected`}
          </strong>
          {!allMatching && traces.hasNextPage && everyLoaded ? (
            <button type="button" className="button button-quiet" onClick={() => setAllMatching(true)}>
              Select every matching trace
            </button>
          ) : null}
          {mayCall(session.role, "importDatasetRowsFromTraces") ? (
            <button type="button" className="button button-primary" onClick={() => setImporting(true)}>
              Add to a dataset…
            </button>
          ) : null}
          <button
            type="button"
            className="button button-quiet"
            onClick={() => {
              setChecked(new Set());
              setAllMatching(false);
            }}
          >
            Clear selection
          </button>
        </section>
      ) : null}
      {traces.error ? <ErrorMessage error={traces.error} /> : null}
      <p className="trace-count" role="status">
        {traces.data ? traceCount(traces.data.pages[0]?.total ?? 0, filters.length > 0) : null}
      </p>
      {traces.isPending ? (
        <p className="page-status" role="status">
          Loading traces…
        </p>
      ) : items.length === 0 ? (
        <div className="empty">
          <p>
            {filters.length > 0
              ? "No trace matches these filters."
              : "No traces yet: send them from any OpenTelemetry exporter to /v1/traces."}
          </p>
        </div>
      ) : (
        <Table
          caption={`Traces, ${traceSorts[query.sort].label.toLowerCase()}`}
          className="table traces-table"
          columns={[
            {
              name: "Select",
              label: (
                <input
                  type="checkbox"
                  aria-label="Select every loaded trace"
                  checked={everyLoaded || allMatching}
                  onChange={() => {
                    setAllMatching(false);
                    setChecked(everyLoaded ? new Set() : new Set(items.map((t) => t.traceId)));
                  }}
                />
              ),
            },
            "Trace",
            "Started",
            numeric("Duration"),
            numeric("Spans"),
            numeric("Errors"),
            numeric("Tokens"),
            numeric("Cost"),
            "Models",
            "Input",
            "Tags",
          ]}
        >
          {items.map((trace) => (
            <TraceRow
              key={trace.traceId}
              trace={trace}
              projectSlug={projectSlug}
              checked={allMatching || checked.has(trace.traceId)}
              onToggle={() => {
                setAllMatching(false);
                toggle(trace.traceId);
              }}
            />
          ))}
        </Table>
      )}
      <LoadMore pages={traces} label="More traces" />
      <ImportTracesDialog
        open={importing}
        projectSlug={projectSlug}
        selection={selection}
        preview={previewTraces}
        onClose={() => setImporting(false)}
        onDone={() => {
          setImporting(false);
          setChecked(new Set());
          setAllMatching(false);
        }}
      />
    </>
  );
}

/**
 * The free-text search of the traces' input and output: the list follows the words as they are
 * typed, once the typing pauses, and at once on Enter; the words stay in the address.
 */
function SearchBox({ value, onSearch }: { value: TraceQuery["text"]; onSearch(text: string): void }) {
  const [draft, setDraft] = useState(value);
  // What this box last put in the address: any other change there (back, a link) replaces the draft.
  const written = useRef(value);
  useEffect(() => {
    if (value !== written.current) {
      written.current = value;
      setDraft(value);
    }
  }, [value]);
  const commit = (text: string) => {
    const trimmed = text.trim();
    if (trimmed === written.current.trim()) return;
    written.current = trimmed;
    onSearch(trimmed);
  };
  const latest = useRef(commit);
  latest.current = commit;
  useEffect(() => {
    const timer = setTimeout(() => latest.current(draft), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [draft]);
  return (
    <search className="trace-search">
      <input
        type="search"
        className="search"
        aria-label="Search input and output"
        placeholder="Search input and output"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") commit(draft);
        }}
      />
    </search>
  );
}

function TraceRow({
  trace,
  projectSlug,
  checked,
  onToggle,
}: {
  trace: Trace;
  projectSlug: string;
  checked: boolean;
  onToggle(): void;
}) {
  return (
    <tr>
      <td>
        <input
          type="checkbox"
          aria-label={`Select trace ${trace.rootSpanName ?? trace.traceId}`}
          checked={checked}
          onChange={onToggle}
        />
      </td>
      <th scope="row">
        <Link to={`/projects/${projectSlug}/traces/${trace.traceId}`}>
          {trace.rootSpanName ?? "(no root span)"}
        </Link>
        <div className="muted">
          <code>{trace.traceId.slice(0, 12)}</code>
        </div>
      </th>
      <td>
        <time dateTime={trace.startTime}>{new Date(trace.startTime).toLocaleString()}</time>
      </td>
      <td className="numeric">{formatDuration(trace.durationNs)}</td>
      <td className="numeric">{trace.spanCount}</td>
      <td className="numeric">{trace.errorCount}</td>
      <td className="numeric">{trace.tokensTotal.toLocaleString()}</td>
      <td className="numeric">{formatCost(trace.costTotalMicrocents)}</td>
      <td>{trace.models.join(", ")}</td>
      <td className="trace-input">{compact(trace.input, 120)}</td>
      <td>{trace.tags.join(", ")}</td>
    </tr>
  );
}

export function formatDuration(durationNs: string): string {
  const ms = Number(BigInt(durationNs) / 1_000n) / 1_000;
  return ms < 1_000 ? `${ms.toFixed(ms < 10 ? 1 : 0)} ms` : `${(ms / 1_000).toFixed(2)} s`;
}
