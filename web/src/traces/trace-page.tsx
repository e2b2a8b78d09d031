import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { api } from "../api";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { numeric, Table } from "../components/table";
import { formatDuration } from "./traces-page";

/** One trace: its summary, its input and output, and its spans in the order they started. */
export function TracePage() {
  const { projectSlug = "", traceId = "" } = useParams();
  const trace = useQuery({
    queryKey: ["trace", projectSlug, traceId],
    queryFn: () => api.traces.get(projectSlug, traceId),
  });
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
        <>
          <dl className="trace-summary">
            <dt>Trace id</dt>
            <dd>
              <code>{data.traceId}</code>
            </dd>
            <dt>Started</dt>
            <dd>{new Date(data.startTime).toLocaleString()}</dd>
            <dt>Duration</dt>
            <dd>{formatDuration(data.durationNs)}</dd>
            <dt>Spans</dt>
            <dd>
              {data.spanCount} ({data.errorCount} with errors)
            </dd>
            <dt>Tokens</dt>
            <dd>{data.tokensTotal.toLocaleString()}</dd>
            <dt>Models</dt>
            <dd>{data.models.join(", ") || "none"}</dd>
            <dt>Session, user</dt>
            <dd>
              {data.sessionId ?? "none"}, {data.userId ?? "none"}
            </dd>
          </dl>
          <h2>Input</h2>
          <pre className="trace-json">{JSON.stringify(data.input, null, 2)}</pre>
          <h2>Output</h2>
          <pre className="trace-json">{JSON.stringify(data.output, null, 2)}</pre>
          <h2>Spans</h2>
          <Table
            caption="Spans, in the order they started"
            columns={["Name", "Kind", "Started", numeric("Duration"), "Status"]}
          >
            {[...data.spans]
              .sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1))
              .map((span) => (
                <tr key={span.spanId}>
                  <th scope="row">{span.name}</th>
                  <td>{span.kind}</td>
                  <td>{new Date(span.startTime).toLocaleTimeString()}</td>
                  <td className="numeric">{formatDuration(span.durationNs)}</td>
                  <td>
                    {span.status.code}
                    {span.status.message ? `: ${span.status.message}` : ""}
                  </td>
                </tr>
              ))}
          </Table>
        </>
      ) : null}
    </>
  );
}
