import type { Cell, Span } from "@svc/sdk";

/*
 * A span's generative-AI content as a person reads it: the model, the messages in and out as a
 * conversation, tokens and cost. The API reads them from the span's attributes (OpenTelemetry's
 * gen_ai.* semantic conventions and the older names still in use) and gives them as the span's fields.
 */

export interface SpanGenAi {
  model: string | null;
  input: Cell;
  output: Cell;
  /** Null when the span counted none: a span that called no model shows no tokens. */
  tokensInput: number | null;
  tokensOutput: number | null;
  costMicrocents: number | null;
}

/** 1 US dollar = 100 cents = 10^8 microcents. */
export const MICROCENTS_PER_USD = 100_000_000;

export function spanGenAi(span: Span): SpanGenAi {
  const counted = span.tokensInput > 0 || span.tokensOutput > 0;
  return {
    model: span.model,
    input: span.input,
    output: span.output,
    tokensInput: counted ? span.tokensInput : null,
    tokensOutput: counted ? span.tokensOutput : null,
    costMicrocents: span.costMicrocents,
  };
}

/** Whether the span holds anything of a model call worth a section of its own. */
export const hasGenAi = (ai: SpanGenAi): boolean =>
  ai.model !== null ||
  ai.input !== null ||
  ai.output !== null ||
  ai.tokensInput !== null ||
  ai.costMicrocents !== null;

function parseJsonText(value: Cell): Cell {
  if (typeof value !== "string") return value;
  const text = value.trim();
  if (!(text.startsWith("{") || text.startsWith("["))) return value;
  try {
    return JSON.parse(text) as Cell;
  } catch {
    return value;
  }
}

/* The conversation. */

export type MessagePart =
  | { kind: "text"; text: string }
  | { kind: "toolCall"; name: string; id: string | null; arguments: unknown }
  | { kind: "toolResult"; id: string | null; content: unknown }
  | { kind: "other"; value: unknown };

export interface Message {
  role: string;
  /** The tool or participant's name, when the message gives one. */
  name: string | null;
  parts: MessagePart[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

/**
 * Messages in any of the shapes instrumentations write them as one list: OpenTelemetry's
 * `{role, parts: [{type: "text" | "tool_call" | "tool_call_response", …}]}`, OpenAI's
 * `{role, content, tool_calls: [{function: {name, arguments}}]}`, Anthropic's content blocks
 * (`text`, `tool_use`, `tool_result`), or plain text (spoken by `defaultRole`).
 */
export function conversationOf(value: Cell, defaultRole: string): Message[] {
  if (value === null || value === undefined) return [];
  if (typeof value === "string")
    return [{ role: defaultRole, name: null, parts: [{ kind: "text", text: value }] }];
  if (Array.isArray(value)) return value.flatMap((item) => messageOf(item, defaultRole));
  if (isObject(value) && Array.isArray(value.messages))
    return conversationOf(value.messages as Cell, defaultRole);
  return messageOf(value, defaultRole);
}

function messageOf(value: unknown, defaultRole: string): Message[] {
  if (typeof value === "string")
    return [{ role: defaultRole, name: null, parts: [{ kind: "text", text: value }] }];
  if (!isObject(value)) return [{ role: defaultRole, name: null, parts: [{ kind: "other", value }] }];
  // An OpenAI choice wraps its message.
  if (isObject(value.message) && value.role === undefined) return messageOf(value.message, defaultRole);
  const role = text(value.role) ?? defaultRole;
  const parts: MessagePart[] = [];
  if (Array.isArray(value.parts)) parts.push(...value.parts.map(partOf));
  if (typeof value.content === "string") {
    if (role === "tool" && text(value.tool_call_id) !== null)
      parts.push({ kind: "toolResult", id: text(value.tool_call_id), content: value.content });
    else parts.push({ kind: "text", text: value.content });
  } else if (Array.isArray(value.content)) parts.push(...value.content.map(partOf));
  else if (value.content !== undefined && value.content !== null)
    parts.push({ kind: "other", value: value.content });
  if (Array.isArray(value.tool_calls)) parts.push(...value.tool_calls.map(toolCallOf));
  if (isObject(value.function_call)) parts.push(toolCallOf({ function: value.function_call }));
  if (parts.length === 0) {
    const { role: _role, name: _name, ...rest } = value;
    if (Object.keys(rest).length > 0) parts.push({ kind: "other", value: rest });
  }
  return [{ role, name: text(value.name), parts }];
}

function partOf(value: unknown): MessagePart {
  if (typeof value === "string") return { kind: "text", text: value };
  if (!isObject(value)) return { kind: "other", value };
  switch (value.type) {
    case "text":
      return { kind: "text", text: text(value.content) ?? text(value.text) ?? JSON.stringify(value) };
    case "tool_call":
    case "tool_use":
    case "function":
      return toolCallOf(value);
    case "tool_call_response":
      return { kind: "toolResult", id: text(value.id), content: value.response ?? value.result ?? null };
    case "tool_result":
      return { kind: "toolResult", id: text(value.tool_use_id), content: value.content ?? null };
    default:
      return { kind: "other", value };
  }
}

function toolCallOf(value: unknown): MessagePart {
  if (!isObject(value)) return { kind: "other", value };
  const call = isObject(value.function) ? value.function : value;
  const raw = call.arguments ?? call.input ?? null;
  return {
    kind: "toolCall",
    name: text(call.name) ?? "a tool",
    id: text(value.id),
    arguments: typeof raw === "string" ? parseJsonText(raw) : raw,
  };
}

/** Cost in millionths of a cent as dollars: "$0.0125", "$12.40", "< $0.0001". */
export function formatCost(microcents: number): string {
  const dollars = microcents / MICROCENTS_PER_USD;
  if (dollars === 0) return "$0";
  if (dollars < 0.0001) return "< $0.0001";
  return `$${dollars < 1 ? dollars.toPrecision(3).replace(/\.?0+$/, "") : dollars.toFixed(2)}`;
}
