import type { Trace } from "@svc/sdk";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { LoadMore } from "../components/load-more";
import { conversationOf, formatCost } from "./gen-ai";
import { sessionTracesQuery } from "./queries";
import { Conversation } from "./span-detail";
import { newMessagesOf, offsetLabel } from "./trace-groups";
import { paramsOf, traceCount } from "./trace-query";
import { formatDuration } from "./traces-page";
import { TracesTabs } from "./traces-tabs";

/**
 * One session as the conversation it was: its traces in the order they started, each turn with what
 * was asked and what was answered, when, how long it took, what it cost, and a link to its trace.
 */
export function SessionPage() {
  const { projectSlug = "", sessionId = "" } = useParams();
  const turns = useInfiniteQuery(sessionTracesQuery(projectSlug, sessionId));
  const items = turns.data?.pages.flatMap((page) => page.items) ?? [];
  const total = turns.data?.pages[0]?.total ?? 0;
  const first = items[0];
  const users = [...new Set(items.flatMap((trace) => (trace.userId ? [trace.userId] : [])))];
  const listAddress = `/projects/${projectSlug}/traces?${paramsOf({ session: sessionId, sort: "oldest" })}`;

  return (
    <>
      <PageHeader
        title={`Session ${sessionId}`}
        crumbs={[
          { label: "Projects", to: "/projects" },
          { label: projectSlug, to: `/projects/${projectSlug}` },
          { label: "Sessions", to: `/projects/${projectSlug}/traces/sessions` },
        ]}
      />
      <TracesTabs projectSlug={projectSlug} />
      {turns.error ? <ErrorMessage error={turns.error} /> : null}
      {turns.isPending ? (
        <p className="page-status" role="status">
          Loading the session…
        </p>
      ) : !first ? (
        <div className="empty">
          <p>No trace belongs to this session.</p>
        </div>
      ) : (
        <>
          <div className="trace-facts">
            <dl className="trace-summary trace-summary-row session-summary">
              <div>
                <dt>Traces</dt>
                <dd>{traceCount(total)}</dd>
              </div>
              <div>
                <dt>{users.length === 1 ? "User" : "Users"}</dt>
                <dd>{users.length > 0 ? users.join(", ") : "none"}</dd>
              </div>
              <div>
                <dt>Started</dt>
                <dd>
                  <time dateTime={first.startTime}>{new Date(first.startTime).toLocaleString()}</time>
                </dd>
              </div>
            </dl>
            <Link to={listAddress} className="button">
              Open in the traces list
            </Link>
          </div>
          <ol className="session-turns" aria-label="Turns of the session">
            {items.map((trace, i) => (
              <Turn
                key={trace.traceId}
                trace={trace}
                number={i + 1}
                sessionStart={first.startTime}
                projectSlug={projectSlug}
              />
            ))}
          </ol>
          <LoadMore pages={turns} label="Later turns" />
        </>
      )}
    </>
  );
}

function Turn({
  trace,
  number,
  sessionStart,
  projectSlug,
}: {
  trace: Trace;
  number: number;
  sessionStart: string;
  projectSlug: string;
}) {
  const name = trace.rootSpanName ?? "(no root span)";
  const asked = newMessagesOf(trace.input);
  const answered = conversationOf(trace.output, "assistant");
  return (
    <li className={`session-turn${trace.errorCount > 0 ? " session-turn-error" : ""}`}>
      <article aria-label={`Turn ${number}: ${name}`}>
        <header className="session-turn-head">
          <span className="session-turn-offset">{offsetLabel(sessionStart, trace.startTime)}</span>
          <Link to={`/projects/${projectSlug}/traces/${trace.traceId}`}>{name}</Link>
          <span className="muted">
            <time dateTime={trace.startTime}>{new Date(trace.startTime).toLocaleTimeString()}</time>
            {" · "}
            {formatDuration(trace.durationNs)}
            {trace.models.length > 0 ? ` · ${trace.models.join(", ")}` : null}
            {" · "}
            {trace.tokensTotal.toLocaleString()} tokens · {formatCost(trace.costTotalMicrocents)}
          </span>
          {trace.errorCount > 0 ? (
            <span className="trace-errors">
              {trace.errorCount === 1 ? "1 error" : `${trace.errorCount} errors`}
            </span>
          ) : null}
        </header>
        {asked.length === 0 && answered.length === 0 ? (
          <p className="muted">No messages recorded on this trace's root span.</p>
        ) : (
          <>
            {asked.length > 0 ? <Conversation messages={asked} label={`Turn ${number}, asked`} /> : null}
            {answered.length > 0 ? (
              <Conversation messages={answered} label={`Turn ${number}, answered`} />
            ) : null}
          </>
        )}
      </article>
    </li>
  );
}
