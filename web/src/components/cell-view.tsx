import type { Cell } from "@svc/sdk";
import { lazy, Suspense } from "react";
import { compact } from "../rows/cells";
import { type ChatMessage, type ChatPart, conversationLine, conversationOf } from "../rows/conversation";

/** The Markdown renderer is a few hundred kilobytes: it loads when a cell is first shown rendered. */
const MarkdownView = lazy(() => import("./markdown-view"));

/**
 * A value as one line of the grid: a string as text, its line breaks marked ↵ (never `\n`); a
 * conversation as its messages, each role then what it says; anything else as compact JSON.
 */
export function GridValue({ value }: { value: Cell | undefined }) {
  if (value === null || value === undefined)
    return <span className="cell-null">{value === null ? "null" : ""}</span>;
  if (typeof value === "string") return <span className="cell-text">{textLine(value)}</span>;
  const messages = conversationOf(value);
  if (messages) {
    return (
      <span className="cell-chat">
        <span className="cell-chat-count">{messages.length} messages</span> {conversationLine(messages)}
      </span>
    );
  }
  return <span className="cell-json">{compact(value)}</span>;
}

/** A text in one line, each line break shown as a mark between the lines it separates. */
function textLine(text: string, max = 300) {
  if (!text.includes("\n")) return compact(text, max);
  const lines = (text.length > max ? `${text.slice(0, max)}…` : text).split(/\r?\n/);
  return lines.map((line, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one text have no identity but their place
    <span key={index}>
      {index > 0 ? (
        <span className="cell-break" title="line break">
          {" ↵ "}
        </span>
      ) : null}
      {line.replace(/\s+/g, " ")}
    </span>
  ));
}

/** A conversation as its messages, one after another, each with who said it. */
export function ConversationView({ messages, label }: { messages: readonly ChatMessage[]; label: string }) {
  return (
    <ol className="conversation" aria-label={label}>
      {messages.map((message, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: messages are in order and have no id of their own
        <li key={index} className={`chat-message chat-${roleClass(message.role)}`}>
          <div className="chat-role">
            {message.role}
            {message.name ? <span className="muted"> · {message.name}</span> : null}
          </div>
          {message.parts.length === 0 ? <div className="muted">(no content)</div> : null}
          {message.parts.map((part, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: parts are in order and have no id of their own
            <ChatPartView key={i} part={part} />
          ))}
        </li>
      ))}
    </ol>
  );
}

const roleClass = (role: string) =>
  ["system", "user", "assistant", "tool", "developer"].includes(role) ? role : "other";

function ChatPartView({ part }: { part: ChatPart }) {
  if (part.kind === "text") return <div className="chat-text">{part.text}</div>;
  if (part.kind === "tool-call") {
    return (
      <div className="chat-tool">
        <span className="chat-tool-head">
          Calls <code>{part.name}</code>
          {part.id ? <span className="muted"> · {part.id}</span> : null}
        </span>
        <pre>{part.input}</pre>
      </div>
    );
  }
  if (part.kind === "tool-result") {
    return (
      <div className="chat-tool">
        <span className="chat-tool-head">
          Result{part.id ? <span className="muted"> of {part.id}</span> : null}
        </span>
        <div className="chat-text">{part.text}</div>
      </div>
    );
  }
  return (
    <div className="chat-tool">
      <span className="chat-tool-head">{part.type}</span>
      <pre>{part.json}</pre>
    </div>
  );
}

/** A text rendered as Markdown, once the renderer has loaded. */
export function MarkdownText({ text, label }: { text: string; label: string }) {
  return (
    <Suspense fallback={<div className="muted">Rendering…</div>}>
      <MarkdownView text={text} label={label} />
    </Suspense>
  );
}
