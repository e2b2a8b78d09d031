import type { Cell, Span } from "@svc/sdk";
import type { ReactNode } from "react";
import { compact } from "../rows/cells";
import { conversationOf, formatCost, hasGenAi, type Message, type MessagePart, spanGenAi } from "./gen-ai";
import { formatNanos, type TimeAxis } from "./span-tree";

/**
 * The selected span: what it did (its model call as a conversation, tokens and cost), how it ended,
 * when, and every attribute and event it carries.
 */
export function SpanDetail({
  span,
  axis,
  orphan,
  actions,
}: {
  span: Span;
  axis: TimeAxis;
  orphan: boolean;
  actions: ReactNode;
}) {
  const ai = spanGenAi(span);
  const failed = span.status.code === "error";
  const startsAt = formatNanos(BigInt(span.startTimeUnixNano) - axis.start);
  return (
    <aside className="span-detail" aria-label={`Span ${span.name}`}>
      <div className="row-panel-head">
        <div>
          <h2>{span.name}</h2>
          <p className="muted">
            <code>{span.spanId}</code> · {span.kind}
          </p>
        </div>
        <div className="row-panel-tools">{actions}</div>
      </div>
      {failed ? (
        <p className="span-status-error" role="note">
          <strong>Error</strong>
          {span.status.message ? `: ${span.status.message}` : ""}
        </p>
      ) : null}
      {orphan ? (
        <p className="span-orphan-note" role="note">
          Its parent span (<code>{span.parentSpanId}</code>) has not arrived; it is shown at the root.
        </p>
      ) : null}
      <dl className="trace-summary">
        <dt>Status</dt>
        <dd>{span.status.code}</dd>
        <dt>Starts</dt>
        <dd>{startsAt} into the trace</dd>
        <dt>Duration</dt>
        <dd>{formatNanos(BigInt(span.durationNs))}</dd>
        {ai.model ? (
          <>
            <dt>Model</dt>
            <dd>{ai.model}</dd>
          </>
        ) : null}
        {ai.tokensInput !== null || ai.tokensOutput !== null ? (
          <>
            <dt>Tokens</dt>
            <dd>
              {(ai.tokensInput ?? 0).toLocaleString()} in, {(ai.tokensOutput ?? 0).toLocaleString()} out
            </dd>
          </>
        ) : null}
        {ai.costMicrocents !== null ? (
          <>
            <dt>Cost</dt>
            <dd>{formatCost(ai.costMicrocents)}</dd>
          </>
        ) : null}
      </dl>
      {hasGenAi(ai) && (ai.input !== null || ai.output !== null) ? (
        <>
          <h3>Messages in</h3>
          <Conversation messages={conversationOf(ai.input, "user")} label="Messages in" />
          <h3>Messages out</h3>
          <Conversation messages={conversationOf(ai.output, "assistant")} label="Messages out" />
        </>
      ) : null}
      <h3>Attributes</h3>
      <Attributes attributes={span.attributes} label="Attributes" />
      <h3>Events</h3>
      {span.events.length === 0 ? (
        <p className="muted">No events.</p>
      ) : (
        <ol className="span-events">
          {span.events.map((event, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: two events may share a name and a time.
            <li key={`${event.timeUnixNano}-${i}`}>
              <strong>{event.name}</strong>{" "}
              <span className="muted">
                at {formatNanos(BigInt(event.timeUnixNano) - BigInt(span.startTimeUnixNano))} into the span
              </span>
              {Object.keys(event.attributes).length > 0 ? (
                <Attributes attributes={event.attributes} label={`Attributes of event ${event.name}`} />
              ) : null}
            </li>
          ))}
        </ol>
      )}
      {Object.keys(span.resourceAttributes).length > 0 ? (
        <details className="span-resource">
          <summary>Resource attributes</summary>
          <Attributes attributes={span.resourceAttributes} label="Resource attributes" />
        </details>
      ) : null}
    </aside>
  );
}

function Attributes({ attributes, label }: { attributes: Record<string, Cell>; label: string }) {
  const entries = Object.entries(attributes).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return <p className="muted">None.</p>;
  return (
    <table className="table span-attributes">
      <caption className="visually-hidden">{label}</caption>
      <tbody>
        {entries.map(([key, value]) => (
          <tr key={key}>
            <th scope="row">
              <code>{key}</code>
            </th>
            <td>
              <code>{compact(value, 2_000)}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Messages as a conversation: who spoke, what they said, which tools they called and what came back. */
export function Conversation({ messages, label }: { messages: readonly Message[]; label: string }) {
  if (messages.length === 0) return <p className="muted">None.</p>;
  return (
    <ol className="conversation" aria-label={label}>
      {messages.map((message, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: messages have no id; their order is fixed.
        <li key={i} className={`message message-${roleClass(message.role)}`}>
          <div className="message-role">
            {message.role}
            {message.name ? <span className="muted"> · {message.name}</span> : null}
          </div>
          {message.parts.map((part, j) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a message's parts have no id either.
            <MessagePartView key={j} part={part} />
          ))}
        </li>
      ))}
    </ol>
  );
}

const roleClass = (role: string): string =>
  ["system", "user", "assistant", "tool"].includes(role) ? role : "other";

const pretty = (value: unknown): string =>
  typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? String(value));

function MessagePartView({ part }: { part: MessagePart }) {
  switch (part.kind) {
    case "text":
      return <p className="message-text">{part.text}</p>;
    case "toolCall":
      return (
        <div className="message-tool">
          <div>
            Calls <strong>{part.name}</strong>
            {part.id ? <span className="muted"> ({part.id})</span> : null}
          </div>
          <pre>{pretty(part.arguments)}</pre>
        </div>
      );
    case "toolResult":
      return (
        <div className="message-tool">
          <div>Result{part.id ? <span className="muted"> of {part.id}</span> : null}</div>
          <pre>{pretty(part.content)}</pre>
        </div>
      );
    default:
      return <pre className="message-other">{pretty(part.value)}</pre>;
  }
}
