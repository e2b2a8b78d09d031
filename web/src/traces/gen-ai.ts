import type { Cell, Span } from "@svc/sdk";

/*
 * A span's generative-AI content as a person reads it: the model, the messages in and out as a
 * conversation, tokens and cost. Read from the span's own fields when the API gives them, else from
 * its attributes (OpenTelemetry's gen_ai.* semantic conventions and the older names still in use).
 */

export interface SpanGenAi {
  model: string | null;
  input: Cell;
  output: Cell;
  tokensInput: number | null;
  tokensOutput: number | null;
  costMicrocents: number | null;
}

/** The fields the API adds to a span for its model call, when it gives them. */
type ApiGenAiFields = Partial<{
  model: string | null;
  input: Cell;
  output: Cell;
  tokensInput: number | null;
  tokensOutput: number | null;
  costMicrocents: number | null;
}>;

const MODEL_KEYS = ["gen_ai.response.model", "gen_ai.request.model"] as const;
const INPUT_TOKEN_KEYS = ["gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"] as const;
const OUTPUT_TOKEN_KEYS = ["gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens"] as const;
const INPUT_KEYS = ["gen_ai.input.messages", "gen_ai.prompt"] as const;
const OUTPUT_KEYS = ["gen_ai.output.messages", "gen_ai.completion"] as const;
/** 1 US dollar = 100 cents = 10^8 microcents. */
export const MICROCENTS_PER_USD = 100_000_000;

export function spanGenAi(span: Span): SpanGenAi {
  const fields = span as Span & ApiGenAiFields;
  const attributes = span.attributes;
  const cost = countOf(attributes["gen_ai.usage.cost"]);
  return {
    model:
      fields.model !== undefined
        ? fields.model
        : ((MODEL_KEYS.map((key) => attributes[key]).find((v) => typeof v === "string" && v !== "") as
            | string
            | undefined) ?? null),
    input: fields.input !== undefined ? fields.input : messagesOf(span, INPUT_KEYS, "gen_ai.prompt"),
    output: fields.output !== undefined ? fields.output : messagesOf(span, OUTPUT_KEYS, "gen_ai.completion"),
    tokensInput:
      fields.tokensInput !== undefined ? fields.tokensInput : firstCount(attributes, INPUT_TOKEN_KEYS),
    tokensOutput:
      fields.tokensOutput !== undefined ? fields.tokensOutput : firstCount(attributes, OUTPUT_TOKEN_KEYS),
    costMicrocents:
      fields.costMicrocents !== undefined
        ? fields.costMicrocents
        : cost === null
          ? null
          : Math.round(cost * MICROCENTS_PER_USD),
  };
}

/** Whether the span holds anything of a model call worth a section of its own. */
export const hasGenAi = (ai: SpanGenAi): boolean =>
  ai.model !== null ||
  ai.input !== null ||
  ai.output !== null ||
  ai.tokensInput !== null ||
  ai.tokensOutput !== null ||
  ai.costMicrocents !== null;

function messagesOf(span: Span, keys: readonly string[], indexedPrefix: string): Cell {
  for (const key of keys) {
    const value = span.attributes[key];
    if (value !== undefined && value !== null) return parseJsonText(value);
  }
  const pattern = new RegExp(`^${indexedPrefix.replaceAll(".", "\\.")}\\.(\\d+)\\.(.+)$`);
  const byIndex = new Map<number, [string, Cell][]>();
  for (const [key, value] of Object.entries(span.attributes)) {
    const match = pattern.exec(key);
    if (!match) continue;
    const fields = byIndex.get(Number(match[1])) ?? [];
    fields.push([match[2] as string, parseJsonText(value)]);
    byIndex.set(Number(match[1]), fields);
  }
  if (byIndex.size === 0) return null;
  return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, fields]) => Object.fromEntries(fields));
}

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

function countOf(value: Cell | undefined): number | null {
  const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  return Number.isFinite(number) && number >= 0 ? number : null;
}

function firstCount(attributes: Record<string, Cell>, keys: readonly string[]): number | null {
  for (const key of keys) {
    const value = countOf(attributes[key]);
    if (value !== null) return Math.round(value);
  }
  return null;
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
