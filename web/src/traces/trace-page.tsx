import type { GetTraceResponse, Span } from "@svc/sdk";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { mayCall } from "../access";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { useSignedIn } from "../session";
import { AddSpanDialog } from "./add-span-dialog";
import { formatCost } from "./gen-ai";
import { ImportTracesDialog } from "./import-traces-dialog";
import { traceQuery } from "./queries";
import { SpanDetail } from "./span-detail";
import { SpanTimeline } from "./span-timeline";
import { ancestorsOf, axisOf, buildSpanTree, formatNanos, visibleRows } from "./span-tree";

/**
 * One trace: its summary, its spans as a tree on a timeline, and the selected span (named in the
 * address, `?span=`, so that a link shows the same span) with its conversation, attributes and events.
 * The trace, or one span of it, goes into a dataset from here.
 */
export function TracePage() {
  const { projectSlug = "", traceId = "" } = useParams();
  const trace = useQuery(traceQuery(projectSlug, traceId));
  const data = trace.data;
  return (
    <>
      <PageHeader
        title={data?.rootSpanName ?? `Trace ${traceId.slice(0, 12)}`}
        crumbs={[
          { label: "Projects", to: "/projects" },
          { label: projectSlug, to: `/projects/${projectSlug}` },
          { label: "Traces", to: `/projects/${projectSlug}/traces` },
        ]}
      />
      {trace.error ? <ErrorMessage error={trace.error} /> : null}
      {trace.isPending ? (
        <p className="page-status" role="status">
          Loading the trace…
        </p>
      ) : data ? (
        <TraceView projectSlug={projectSlug} trace={data} />
      ) : null}
    </>
  );
}

function TraceView({ projectSlug, trace }: { projectSlug: string; trace: GetTraceResponse }) {
  const session = useSignedIn();
  const [params, setParams] = useSearchParams();
  const roots = useMemo(() => buildSpanTree<Span>(trace.spans), [trace.spans]);
  const axis = useMemo(() => axisOf(trace.spans), [trace.spans]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [adding, setAdding] = useState<"trace" | "span" | undefined>();

  const asked = params.get("span");
  const selected: Span | undefined =
    trace.spans.find((span) => span.spanId === asked) ?? roots[0]?.span ?? trace.spans[0];
  const selectedId = selected?.spanId;
  const ancestors = useMemo(() => (selectedId ? ancestorsOf(roots, selectedId) : []), [roots, selectedId]);
  // A span named by the address is shown even when one of its ancestors was collapsed.
  const rows = useMemo(() => {
    const shown = new Set(collapsed);
    for (const id of ancestors) shown.delete(id);
    return visibleRows(roots, shown);
  }, [roots, collapsed, ancestors]);

  const select = useCallback(
    (spanId: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set("span", spanId);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const toggle = (spanId: string) => {
    const closing = !collapsed.has(spanId);
    // Closing over the selected span moves the selection to the span that hides it.
    if (closing && ancestors.includes(spanId)) select(spanId);
    setCollapsed((current) => {
      const next = new Set(current);
      if (!next.delete(spanId)) next.add(spanId);
      return next;
    });
  };
  const orphan = rows.find((row) => row.node.span.spanId === selectedId)?.node.orphan ?? false;
  // Adding a trace imports its spans as rows; adding a span inserts one row.
  const mayAddTrace = mayCall(session.role, "importDatasetRowsFromTraces");
  const mayAddSpan = mayCall(session.role, "insertDatasetRows");
  const list = `/projects/${projectSlug}/traces`;

  return (
    <>
      <div className="trace-facts">
        <dl className="trace-summary trace-summary-row">
          <div>
            <dt>Started</dt>
            <dd>
              <time dateTime={trace.startTime}>{new Date(trace.startTime).toLocaleString()}</time>
            </dd>
          </div>
          <div>
            <dt>Duration</dt>
            <dd>{formatNanos(BigInt(trace.durationNs))}</dd>
          </div>
          <div>
            <dt>Spans</dt>
            <dd>
              {trace.spanCount.toLocaleString()}
              {trace.errorCount > 0 ? (
                <span className="trace-errors"> ({trace.errorCount.toLocaleString()} with errors)</span>
              ) : null}
            </dd>
          </div>
          <div>
            <dt>Tokens</dt>
            <dd>
              {trace.tokensInput.toLocaleString()} in, {trace.tokensOutput.toLocaleString()} out
            </dd>
          </div>
          <div>
            <dt>Cost</dt>
            <dd>{formatCost(trace.costTotalMicrocents)}</dd>
          </div>
          <div>
            <dt>Models</dt>
            <dd>{trace.models.join(", ") || "none"}</dd>
          </div>
          {trace.sessionId ? (
            <div>
              <dt>Session</dt>
              <dd>
                <Link to={`${list}?session=${encodeURIComponent(trace.sessionId)}`}>{trace.sessionId}</Link>
              </dd>
            </div>
          ) : null}
          {trace.userId ? (
            <div>
              <dt>User</dt>
              <dd>
                <Link to={`${list}?user=${encodeURIComponent(trace.userId)}`}>{trace.userId}</Link>
              </dd>
            </div>
          ) : null}
        </dl>
        {mayAddTrace ? (
          <button type="button" className="button" onClick={() => setAdding("trace")}>
            Add trace to a dataset…
          </button>
        ) : null}
      </div>
      <div className="trace-layout">
        <SpanTimeline
          rows={rows}
          axis={axis}
          selectedId={selectedId}
          collapsed={collapsed}
          onSelect={select}
          onToggle={toggle}
        />
        {selected ? (
          <SpanDetail
            span={selected}
            axis={axis}
            orphan={orphan}
            actions={
              mayAddSpan ? (
                <button type="button" className="button button-primary" onClick={() => setAdding("span")}>
                  Add span to a dataset…
                </button>
              ) : null
            }
          />
        ) : null}
      </div>
      {selected ? (
        <AddSpanDialog
          open={adding === "span"}
          projectSlug={projectSlug}
          traceId={trace.traceId}
          span={selected}
          onClose={() => setAdding(undefined)}
        />
      ) : null}
      <ImportTracesDialog
        open={adding === "trace"}
        projectSlug={projectSlug}
        selection={{ by: "ids", ids: [trace.traceId] }}
        preview={[trace]}
        onClose={() => setAdding(undefined)}
        onDone={() => setAdding(undefined)}
      />
    </>
  );
}
