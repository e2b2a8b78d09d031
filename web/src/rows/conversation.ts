import type { Cell } from "@svc/sdk";

/**
 * Chat messages, as the model APIs write them: `[{role, content}]` with content a string or a list
 * of parts (`{type: "text", text}`, an image, a tool's use or result), OpenAI's `tool_calls` and
 * `role: "tool"` answers, or the same list under `messages` in an object. Read into one shape, so that
 * a cell holding a conversation can be shown as one.
 */
export interface ChatMessage {
  role: string;
  /** Who spoke, when the message names them (`name`). */
  name: string | undefined;
  parts: ChatPart[];
}

export type ChatPart =
  | { kind: "text"; text: string }
  | { kind: "tool-call"; name: string; input: string; id: string | undefined }
  | { kind: "tool-result"; id: string | undefined; text: string }
  /** A part of another kind (an image, audio): its type, and its JSON. */
  | { kind: "other"; type: string; json: string };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const text = (value: unknown): string =>
  typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value);

/** The messages of a cell that holds a conversation; undefined for any other value. */
export function conversationOf(value: Cell | undefined): ChatMessage[] | undefined {
  const list = isObject(value) && Array.isArray(value.messages) ? value.messages : value;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const messages: ChatMessage[] = [];
  for (const item of list) {
    const message = messageOf(item);
    if (!message) return undefined;
    messages.push(message);
  }
  return messages;
}

function messageOf(item: unknown): ChatMessage | undefined {
  if (!isObject(item) || typeof item.role !== "string" || item.role === "") return undefined;
  const parts = partsOf(item.content);
  if (parts === undefined) return undefined;
  if (Array.isArray(item.tool_calls)) {
    for (const call of item.tool_calls) {
      if (!isObject(call)) return undefined;
      const fn = isObject(call.function) ? call.function : call;
      parts.push({
        kind: "tool-call",
        name: text(fn.name),
        input: text(fn.arguments),
        id: typeof call.id === "string" ? call.id : undefined,
      });
    }
  }
  if (item.role === "tool" && typeof item.tool_call_id === "string") {
    return {
      role: "tool",
      name: undefined,
      parts: [{ kind: "tool-result", id: item.tool_call_id, text: parts.map(partText).join("\n") }],
    };
  }
  return { role: item.role, name: typeof item.name === "string" ? item.name : undefined, parts };
}

/** A message's content as parts; undefined when it is not content a chat API writes. */
function partsOf(content: unknown): ChatPart[] | undefined {
  if (content === undefined || content === null) return [];
  if (typeof content === "string") return content === "" ? [] : [{ kind: "text", text: content }];
  if (!Array.isArray(content)) return undefined;
  const parts: ChatPart[] = [];
  for (const part of content) {
    if (typeof part === "string") parts.push({ kind: "text", text: part });
    else if (!isObject(part) || typeof part.type !== "string") return undefined;
    else if (typeof part.text === "string" && /text$/.test(part.type))
      parts.push({ kind: "text", text: part.text });
    else if (part.type === "tool_use")
      parts.push({
        kind: "tool-call",
        name: text(part.name),
        input: text(part.input),
        id: typeof part.id === "string" ? part.id : undefined,
      });
    else if (part.type === "tool_result")
      parts.push({
        kind: "tool-result",
        id: typeof part.tool_use_id === "string" ? part.tool_use_id : undefined,
        text: Array.isArray(part.content)
          ? (partsOf(part.content) ?? []).map(partText).join("\n")
          : text(part.content),
      });
    else parts.push({ kind: "other", type: part.type, json: JSON.stringify(part) });
  }
  return parts;
}

function partText(part: ChatPart): string {
  if (part.kind === "text" || part.kind === "tool-result") return part.text;
  if (part.kind === "tool-call") return `${part.name}(${part.input})`;
  return `[${part.type}]`;
}

/** A conversation in one line, for the grid: each message's role and the start of what it says. */
export function conversationLine(messages: readonly ChatMessage[], max = 300): string {
  const line = messages
    .map((message) => `${message.role}: ${message.parts.map(partText).join(" ")}`)
    .join(" · ")
    .replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/**
 * Whether a text reads as Markdown (a heading, a list, a fence, emphasis, a link or a table), so that
 * showing it rendered is worth offering.
 */
export function looksLikeMarkdown(value: string): boolean {
  return (
    /^(#{1,6} |\s*[-*+] |\s*\d+\. |```|> |\|.*\|\s*$)/m.test(value) ||
    /\*\*[^*\n]+\*\*|__[^_\n]+__|\[[^\]\n]+\]\([^)\s]+\)|`[^`\n]+`/.test(value)
  );
}
