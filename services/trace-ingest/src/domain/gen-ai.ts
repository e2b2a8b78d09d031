import type { Cell } from "@svc/contracts";
import type { Attributes, ReceivedSpan } from "./otlp";

/**
 * What one span tells about its trace, read from OpenTelemetry's generative-AI semantic conventions
 * (and the older names still in use). docs/decisions/0003-traces.md lists every attribute.
 */
export interface SpanFacts {
  sessionId: string | null;
  userId: string | null;
  tags: string[];
  models: string[];
  tokensInput: number;
  tokensOutput: number;
  /** What the exporter said the span cost; null when it did not say (the price table may know). */
  costMicrocents: number | null;
  input: Cell;
  output: Cell;
}

const SESSION_KEYS = ["session.id", "gen_ai.conversation.id"] as const;
const USER_KEYS = ["user.id", "enduser.id"] as const;
const TAG_KEYS = ["svc.tags", "tags"] as const;
const MODEL_KEYS = ["gen_ai.request.model", "gen_ai.response.model"] as const;
const INPUT_TOKEN_KEYS = ["gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"] as const;
const OUTPUT_TOKEN_KEYS = ["gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens"] as const;
/** Cost of the span's model calls in US dollars. */
const COST_USD_KEY = "gen_ai.usage.cost";
const INPUT_KEYS = ["gen_ai.input.messages", "gen_ai.prompt"] as const;
const OUTPUT_KEYS = ["gen_ai.output.messages", "gen_ai.completion"] as const;

/** 1 US dollar = 100 cents = 10^8 microcents. */
const MICROCENTS_PER_USD = 100_000_000;

export function spanFacts(span: ReceivedSpan): SpanFacts {
  const attributes = span.attributes;
  return {
    sessionId: firstText(attributes, SESSION_KEYS) ?? firstText(span.resourceAttributes, SESSION_KEYS),
    userId: firstText(attributes, USER_KEYS) ?? firstText(span.resourceAttributes, USER_KEYS),
    tags: distinct([...textList(attributes, TAG_KEYS), ...textList(span.resourceAttributes, TAG_KEYS)]),
    models: distinct(MODEL_KEYS.map((key) => attributes[key]).filter(isNonEmptyText)),
    tokensInput: firstCount(attributes, INPUT_TOKEN_KEYS),
    tokensOutput: firstCount(attributes, OUTPUT_TOKEN_KEYS),
    costMicrocents: exporterCost(attributes[COST_USD_KEY]),
    input: messages(span, INPUT_KEYS, "gen_ai.prompt", "gen_ai.content.prompt"),
    output: messages(span, OUTPUT_KEYS, "gen_ai.completion", "gen_ai.content.completion"),
  };
}

/**
 * The span's messages: the first of `keys` that is set (a JSON string is parsed), else the older
 * indexed form (`gen_ai.prompt.0.role`, `gen_ai.prompt.0.content`, …) rebuilt as a list, else the
 * attribute of the same name on the event that older instrumentations emit. Null when there are none.
 */
function messages(
  span: ReceivedSpan,
  keys: readonly string[],
  indexedPrefix: string,
  eventName: string,
): Cell {
  for (const key of keys) {
    const value = span.attributes[key];
    if (value !== undefined && value !== null) return parseJsonText(value);
  }
  const indexed = indexedMessages(span.attributes, indexedPrefix);
  if (indexed.length > 0) return indexed;
  const event = span.events.find((candidate) => candidate.name === eventName);
  const fromEvent = event?.attributes[indexedPrefix];
  return fromEvent === undefined || fromEvent === null ? null : parseJsonText(fromEvent);
}

function indexedMessages(attributes: Attributes, prefix: string): Cell[] {
  const pattern = new RegExp(`^${prefix.replaceAll(".", "\\.")}\\.(\\d+)\\.(.+)$`);
  // A message's fields are gathered as entries and made an object at once: assigning a field named
  // `__proto__` (`gen_ai.prompt.0.__proto__`) would set the message's prototype and lose the field.
  const byIndex = new Map<number, [string, Cell][]>();
  for (const [key, value] of Object.entries(attributes)) {
    const match = pattern.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    const fields = byIndex.get(index) ?? [];
    fields.push([match[2] as string, parseJsonText(value)]);
    byIndex.set(index, fields);
  }
  return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, fields]) => Object.fromEntries(fields));
}

/** A string holding a JSON object or array becomes that value; any other value stays as it is. */
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

const isNonEmptyText = (value: Cell | undefined): value is string =>
  typeof value === "string" && value !== "";

function firstText(attributes: Attributes, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = attributes[key];
    if (isNonEmptyText(value)) return value;
    if (typeof value === "number") return String(value);
  }
  return null;
}

/** Tags: a list of strings, or one string holding a JSON list or a single tag. */
function textList(attributes: Attributes, keys: readonly string[]): string[] {
  for (const key of keys) {
    const value = parseJsonText(attributes[key] ?? null);
    if (Array.isArray(value)) return value.filter(isNonEmptyText);
    if (isNonEmptyText(value)) return [value];
  }
  return [];
}

function firstCount(attributes: Attributes, keys: readonly string[]): number {
  for (const key of keys) {
    const value = numberOf(attributes[key]);
    if (value > 0) return safeInteger(value);
  }
  return 0;
}

/** A number, or a string holding one (some SDKs send counts as strings); anything else is 0. */
function numberOf(value: Cell | undefined): number {
  const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  return Number.isFinite(number) ? number : 0;
}

const nonNegative = (value: number): number => Math.max(value, 0);

/** The cost an exporter sent, in microcents: null when it sent none, or nothing that is a number. */
function exporterCost(value: Cell | undefined): number | null {
  if (typeof value !== "number" && (typeof value !== "string" || value.trim() === "")) return null;
  const usd = Number(value);
  return Number.isFinite(usd) ? safeInteger(nonNegative(usd) * MICROCENTS_PER_USD) : null;
}
const safeInteger = (value: number): number => Math.min(Math.round(value), Number.MAX_SAFE_INTEGER);

const distinct = (values: readonly string[]): string[] => [...new Set(values)];
