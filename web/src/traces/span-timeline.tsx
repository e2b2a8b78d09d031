import type { Span } from "@svc/sdk";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, useEffect, useRef } from "react";
import { spanGenAi } from "./gen-ai";
import { axisTicks, barOf, formatNanos, type TimeAxis, type TreeRow } from "./span-tree";

export const SPAN_ROW_HEIGHT = 30;

/**
 * The span tree beside its timeline: one line per span, indented under its parent, with a bar on the
 * trace's time axis. Only the lines in view are in the page (TanStack Virtual, as the dataset grid),
 * so a trace of thousands of spans opens as fast as one of ten. One tab stop: the arrow keys move
 * through it as through any tree (Right opens or goes in, Left closes or goes out).
 */
export function SpanTimeline({
  rows,
  axis,
  selectedId,
  collapsed,
  onSelect,
  onToggle,
}: {
  rows: readonly TreeRow<Span>[];
  axis: TimeAxis;
  selectedId: string | undefined;
  collapsed: ReadonlySet<string>;
  onSelect(spanId: string): void;
  onToggle(spanId: string): void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => SPAN_ROW_HEIGHT,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const selectedIndex = rows.findIndex((row) => row.node.span.spanId === selectedId);
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: "auto" });
  }, [selectedIndex, virtualizer]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = rows[selectedIndex];
    const go = (index: number) => {
      event.preventDefault();
      const row = rows[Math.min(rows.length - 1, Math.max(0, index))];
      if (row) onSelect(row.node.span.spanId);
    };
    if (event.key === "ArrowDown") go(selectedIndex + 1);
    else if (event.key === "ArrowUp") go(Math.max(selectedIndex - 1, 0));
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(rows.length - 1);
    else if (event.key === "PageDown") go(selectedIndex + 10);
    else if (event.key === "PageUp") go(selectedIndex - 10);
    else if (!current) return;
    else if (event.key === "ArrowRight" && current.node.children.length > 0) {
      event.preventDefault();
      if (collapsed.has(current.node.span.spanId)) onToggle(current.node.span.spanId);
      else go(selectedIndex + 1);
    } else if (event.key === "ArrowLeft") {
      event.preventDefault();
      if (current.node.children.length > 0 && !collapsed.has(current.node.span.spanId))
        onToggle(current.node.span.spanId);
      else if (current.parentId) onSelect(current.parentId);
    }
  };

  const activeRendered = selectedId !== undefined && items.some((item) => item.index === selectedIndex);
  return (
    <div className="span-timeline">
      <div className="span-axis" aria-hidden="true">
        <span className="span-axis-name">Span</span>
        <span className="span-axis-scale">
          {axisTicks(axis).map((tick) => (
            <span key={tick.percent} className="span-tick" style={{ left: `${tick.percent}%` }}>
              {formatNanos(tick.ns)}
            </span>
          ))}
        </span>
      </div>
      <div
        ref={scroller}
        className="span-scroller"
        role="tree"
        aria-label="Spans"
        aria-activedescendant={activeRendered ? `span-${selectedId}` : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        <div className="span-body" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = rows[item.index];
            return row ? (
              <SpanLine
                key={row.node.span.spanId}
                row={row}
                axis={axis}
                top={item.start}
                selected={row.node.span.spanId === selectedId}
                expanded={row.node.children.length > 0 ? !collapsed.has(row.node.span.spanId) : undefined}
                onSelect={(spanId) => {
                  scroller.current?.focus({ preventScroll: true });
                  onSelect(spanId);
                }}
                onToggle={onToggle}
              />
            ) : null;
          })}
        </div>
      </div>
    </div>
  );
}

/** How far in each level of nesting goes, up to the depth past which lines stop moving right. */
const INDENT = 14;
const DEEPEST_INDENT = 24;

function SpanLine({
  row,
  axis,
  top,
  selected,
  expanded,
  onSelect,
  onToggle,
}: {
  row: TreeRow<Span>;
  axis: TimeAxis;
  top: number;
  selected: boolean;
  expanded: boolean | undefined;
  onSelect(spanId: string): void;
  onToggle(spanId: string): void;
}) {
  const { span } = row.node;
  const failed = span.status.code === "error";
  const model = spanGenAi(span).model;
  const bar = barOf(span, axis);
  const duration = formatNanos(BigInt(span.durationNs));
  const classes = [
    "span-line",
    selected ? "selected" : "",
    failed ? "failed" : "",
    model ? "model-call" : "",
  ];
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the tree answers the keys for every line.
    <div
      id={`span-${span.spanId}`}
      role="treeitem"
      aria-level={row.depth}
      aria-posinset={row.position}
      aria-setsize={row.siblings}
      aria-selected={selected}
      aria-expanded={expanded}
      className={classes.join(" ")}
      style={{ transform: `translateY(${top}px)`, height: SPAN_ROW_HEIGHT }}
      // Focus stays on the tree, which answers the keys for every line (aria-activedescendant).
      tabIndex={-1}
      onClick={() => onSelect(span.spanId)}
    >
      <span
        className="span-name"
        style={{ paddingLeft: Math.min(row.depth - 1, DEEPEST_INDENT) * INDENT + 4 }}
      >
        {/* A pointer's way to open and close; the keyboard's is the tree's Left and Right. */}
        <span
          className="span-toggle"
          aria-hidden="true"
          onClick={(event) => {
            if (expanded === undefined) return;
            event.stopPropagation();
            onToggle(span.spanId);
          }}
        >
          {expanded === undefined ? "" : expanded ? "▾" : "▸"}
        </span>
        {failed ? (
          <span className="span-error-mark" aria-hidden="true" title="Error">
            !
          </span>
        ) : null}
        {/*
         * The line's name, as read aloud: "find_order, error, 350 ms, model gpt-4o". Each comma ends
         * the part before it: the parts are flex items, which a browser's name computation spaces.
         */}
        <span className="span-label">
          {span.name}
          <span className="visually-hidden">{failed ? ", error," : ","}</span>
        </span>
        {row.node.orphan ? (
          <span className="span-orphan" title="Its parent span has not arrived">
            parent missing<span className="visually-hidden">,</span>
          </span>
        ) : null}
        <span className="span-duration">
          {duration}
          {model ? <span className="visually-hidden">, model {model}</span> : null}
        </span>
      </span>
      <span className="span-track" aria-hidden="true">
        <span className="span-bar" style={{ left: `${bar.offset}%`, width: `${bar.width}%` }} />
      </span>
    </div>
  );
}
