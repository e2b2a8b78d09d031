/*
 * A trace's spans as a tree on one time axis: the nesting that parentSpanId gives, the rows a person
 * sees once some spans are collapsed, and where each span's bar sits on the timeline.
 */

/** What the tree needs of a span: its ids and its exact times (nanoseconds since the epoch, as text). */
export interface TreeSpan {
  spanId: string;
  parentSpanId: string | null;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
}

export interface SpanNode<S extends TreeSpan> {
  span: S;
  children: SpanNode<S>[];
  /**
   * A span that names a parent the trace does not hold (not arrived yet, or lost), or whose ancestors
   * loop back to it: shown at the root, marked, rather than left out.
   */
  orphan: boolean;
  /** The start in nanoseconds, parsed once: sorting a thousand spans compares it thousands of times. */
  start: bigint;
}

const byStart = <S extends TreeSpan>(a: SpanNode<S>, b: SpanNode<S>): number =>
  a.start < b.start ? -1 : a.start > b.start ? 1 : a.span.spanId < b.span.spanId ? -1 : 1;

/** The spans as trees: roots (and orphans) first by start time, each node's children by start time. */
export function buildSpanTree<S extends TreeSpan>(spans: readonly S[]): SpanNode<S>[] {
  const nodes = new Map<string, SpanNode<S>>();
  for (const span of spans) {
    nodes.set(span.spanId, { span, children: [], orphan: false, start: BigInt(span.startTimeUnixNano) });
  }
  const roots: SpanNode<S>[] = [];
  for (const node of nodes.values()) {
    const parentId = node.span.parentSpanId;
    const parent = parentId ? nodes.get(parentId) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else {
      node.orphan = Boolean(parentId);
      roots.push(node);
    }
  }
  // A loop of parents (a → b → a) has no root: every span of it that no root reaches becomes one.
  const reached = new Set<SpanNode<S>>();
  const reach = (start: SpanNode<S>) => {
    const stack = [start];
    for (let node = stack.pop(); node; node = stack.pop()) {
      reached.add(node);
      stack.push(...node.children.filter((child) => !reached.has(child)));
    }
  };
  for (const root of roots) reach(root);
  for (const node of nodes.values()) {
    if (reached.has(node)) continue;
    for (const other of nodes.values()) {
      other.children = other.children.filter((child) => child !== node);
    }
    node.orphan = true;
    roots.push(node);
    reach(node);
  }
  roots.sort(byStart);
  for (const node of reached) node.children.sort(byStart);
  return roots;
}

/** One line of the tree as shown: its node, how deep it is, and where it sits among its siblings. */
export interface TreeRow<S extends TreeSpan> {
  node: SpanNode<S>;
  depth: number;
  /** 1-based position among its siblings, and how many siblings there are (for assistive technology). */
  position: number;
  siblings: number;
  parentId: string | null;
}

/** The rows in reading order, leaving out the descendants of a collapsed span. */
export function visibleRows<S extends TreeSpan>(
  roots: readonly SpanNode<S>[],
  collapsed: ReadonlySet<string>,
): TreeRow<S>[] {
  const rows: TreeRow<S>[] = [];
  // Iterative, not recursive: a chain of thousands of nested spans must not overflow the stack.
  const stack: TreeRow<S>[] = [];
  const pushLevel = (nodes: readonly SpanNode<S>[], depth: number, parentId: string | null) => {
    for (let i = nodes.length - 1; i >= 0; i--) {
      const node = nodes[i] as SpanNode<S>;
      stack.push({ node, depth, position: i + 1, siblings: nodes.length, parentId });
    }
  };
  pushLevel(roots, 1, null);
  for (let row = stack.pop(); row; row = stack.pop()) {
    rows.push(row);
    if (!collapsed.has(row.node.span.spanId)) {
      pushLevel(row.node.children, row.depth + 1, row.node.span.spanId);
    }
  }
  return rows;
}

/** The ids of a span's ancestors, nearest first: what to expand to show it. */
export function ancestorsOf<S extends TreeSpan>(roots: readonly SpanNode<S>[], spanId: string): string[] {
  const parents = new Map<string, string>();
  const stack = [...roots];
  for (let node = stack.pop(); node; node = stack.pop()) {
    for (const child of node.children) {
      parents.set(child.span.spanId, node.span.spanId);
      stack.push(child);
    }
  }
  const chain: string[] = [];
  for (let id = parents.get(spanId); id !== undefined; id = parents.get(id)) chain.push(id);
  return chain;
}

/** The time axis of a trace: its first start and its last end, in nanoseconds. */
export interface TimeAxis {
  start: bigint;
  end: bigint;
}

export function axisOf(spans: readonly TreeSpan[]): TimeAxis {
  let start: bigint | undefined;
  let end: bigint | undefined;
  for (const span of spans) {
    const from = BigInt(span.startTimeUnixNano);
    const to = BigInt(span.endTimeUnixNano);
    if (start === undefined || from < start) start = from;
    if (end === undefined || to > end) end = to;
  }
  return { start: start ?? 0n, end: end ?? 0n };
}

/** A span's bar, in percent of the axis: where it starts and how wide it is. */
export interface Bar {
  offset: number;
  width: number;
}

/** So that an instant span (or one of a long trace's microseconds) is still a visible mark. */
export const MIN_BAR_PERCENT = 0.25;

export function barOf(span: TreeSpan, axis: TimeAxis): Bar {
  const total = axis.end - axis.start;
  if (total <= 0n) return { offset: 0, width: 100 };
  // The differences are exact BigInts; only their ratio to the axis becomes a float.
  const percent = (ns: bigint) => (Number((ns * 1_000_000n) / total) / 1_000_000) * 100;
  const offset = clamp(percent(BigInt(span.startTimeUnixNano) - axis.start), 0, 100);
  const width = clamp(percent(BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano)), 0, 100);
  const shown = Math.max(width, MIN_BAR_PERCENT);
  // A bar made wider to be seen stays inside the axis.
  return { offset: Math.min(offset, 100 - shown), width: shown };
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** Ticks of the time axis: `count` evenly spaced labels from 0 to the trace's duration. */
export function axisTicks(axis: TimeAxis, count = 4): { percent: number; ns: bigint }[] {
  const total = axis.end - axis.start;
  return Array.from({ length: count + 1 }, (_, i) => ({
    percent: (i / count) * 100,
    ns: (total * BigInt(i)) / BigInt(count),
  }));
}

/** A duration in nanoseconds as a person reads it: "850 µs", "12.4 ms", "3.20 s", "2 min 5 s". */
export function formatNanos(ns: bigint): string {
  if (ns === 0n) return "0";
  if (ns < 1_000_000n) return `${Number(ns / 1_000n)} µs`;
  const ms = Number(ns / 1_000n) / 1_000;
  if (ms < 1_000) return `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
  const seconds = ms / 1_000;
  if (seconds < 120) return `${seconds.toFixed(2)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}
