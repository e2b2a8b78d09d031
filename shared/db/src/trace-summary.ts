import type { TraceFacts } from "./traces";

/*
 * A trace's summary, from its spans: trace-ingest folds it into `traces` (fold-traces.ts), and so does
 * any service about to read the summaries, so the rules live here once.
 */

/** What summarising needs of each stored span: its place in the tree, its times and its facts. */
export interface SpanOutline extends TraceFacts {
  /** What the span cost; null when neither its exporter nor the price table said. */
  costMicrocents: number | null;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  startNs: string;
  endNs: string;
  statusCode: number;
}

/** A trace's summary, without the root span's messages (they are read for the root alone). */
export interface TraceSummary extends TraceFacts {
  spanCount: number;
  errorCount: number;
  startNs: string;
  endNs: string;
  durationNs: string;
  rootSpanId: string | null;
  rootSpanName: string | null;
  tokensTotal: number;
  costTotalMicrocents: number;
}

const STATUS_ERROR = 2;

/**
 * Summarises the spans of one trace received so far. Counts, tokens and cost add up over every span;
 * session and user come from the root span, or else from the earliest span that has them.
 */
export function summarizeTrace(spans: readonly SpanOutline[]): TraceSummary {
  const ordered = [...spans].sort(byStart);
  const root = rootOf(ordered);
  const first = ordered[0];
  const startNs = first ? first.startNs : "0";
  const endNs = ordered.reduce(
    (latest, span) => (BigInt(span.endNs) > BigInt(latest) ? span.endNs : latest),
    startNs,
  );
  const preferRoot = root ? [root, ...ordered.filter((span) => span !== root)] : ordered;
  const tokensInput = sum(ordered, (span) => span.tokensInput);
  const tokensOutput = sum(ordered, (span) => span.tokensOutput);
  return {
    spanCount: ordered.length,
    errorCount: ordered.filter((span) => span.statusCode === STATUS_ERROR).length,
    startNs,
    endNs,
    durationNs: (BigInt(endNs) - BigInt(startNs)).toString(),
    rootSpanId: root?.spanId ?? null,
    rootSpanName: root?.name ?? null,
    sessionId: preferRoot.find((span) => span.sessionId !== null)?.sessionId ?? null,
    userId: preferRoot.find((span) => span.userId !== null)?.userId ?? null,
    tags: [...new Set(ordered.flatMap((span) => span.tags))].sort(),
    models: [...new Set(ordered.flatMap((span) => span.models))].sort(),
    tokensInput,
    tokensOutput,
    tokensTotal: tokensInput + tokensOutput,
    costTotalMicrocents: sum(ordered, (span) => span.costMicrocents ?? 0),
  };
}

/**
 * The root: the earliest span without a parent. While it has not arrived (exporters usually send a
 * parent after its children, since it ends last), the earliest span whose parent is not here stands in.
 */
function rootOf(ordered: readonly SpanOutline[]): SpanOutline | undefined {
  const ids = new Set(ordered.map((span) => span.spanId));
  return (
    ordered.find((span) => span.parentSpanId === null) ??
    ordered.find((span) => span.parentSpanId !== null && !ids.has(span.parentSpanId)) ??
    ordered[0]
  );
}

function byStart(a: SpanOutline, b: SpanOutline): number {
  const difference = BigInt(a.startNs) - BigInt(b.startNs);
  if (difference !== 0n) return difference < 0n ? -1 : 1;
  return a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0;
}

const sum = (spans: readonly SpanOutline[], value: (span: SpanOutline) => number): number =>
  Math.min(
    spans.reduce((total, span) => total + value(span), 0),
    Number.MAX_SAFE_INTEGER,
  );
