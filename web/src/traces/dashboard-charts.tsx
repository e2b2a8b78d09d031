import { type KeyboardEvent, useId, useState } from "react";
import { CartesianGrid, Legend, Line, LineChart, ReferenceDot, Tooltip, XAxis, YAxis } from "recharts";
import { type ChartFocus, type ChartRow, firstFocus, movedFocus } from "./dashboard-range";

/*
 * The dashboard's charts, loaded with the dashboard (recharts, as decision 0032 chose for every
 * chart). A click on a point asks for the traces behind it: its bucket, and its line's group. The
 * keyboard reaches the same points: Tab into the chart, the arrow keys move from point to point (the
 * tooltip shows the point and a screen reader hears it), Enter opens its traces.
 */

/** The experiments' palette: distinct on white and to most colour-blind eyes. */
const COLOURS = ["#4f46e5", "#c2410c", "#047857", "#a21caf", "#0369a1", "#a16207", "#be123c", "#4b5563"];
const colourOf = (i: number): string => COLOURS[i % COLOURS.length] ?? "#4f46e5";
const AXIS = { fontSize: 12, fill: "#5d6273" };

export function MetricChart({
  title,
  rows,
  lines,
  format,
  timeLabel,
  onPoint,
}: {
  title: string;
  rows: readonly ChartRow[];
  /** Each line: its label (a group, or a measure's name). */
  lines: readonly string[];
  format(value: number): string;
  timeLabel(time: string): string;
  onPoint(time: string, line: string | undefined): void;
}) {
  const [focus, setFocus] = useState<ChartFocus | undefined>();
  const helpId = useId();
  const row = focus ? rows[focus.row] : undefined;
  const line = focus ? lines[focus.line] : undefined;
  const value = row && line !== undefined ? (row.values[line] ?? 0) : undefined;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!focus || rows.length === 0) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (row) onPoint(row.time, line);
      return;
    }
    if (event.key === "Escape") {
      event.currentTarget.blur();
      return;
    }
    const next = movedFocus(focus, event.key, rows.length, lines.length);
    if (next) {
      event.preventDefault();
      setFocus(next);
    }
  };

  return (
    <div
      className="chart-keys"
      role="application"
      aria-roledescription="chart"
      aria-label={title}
      aria-describedby={helpId}
      tabIndex={rows.length > 0 ? 0 : undefined}
      onFocus={(event) => {
        if (event.target === event.currentTarget && !focus) setFocus(firstFocus(rows, lines));
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocus(undefined);
      }}
      onKeyDown={onKeyDown}
    >
      <LineChart
        responsive
        accessibilityLayer={false}
        style={{ width: "100%", height: 200 }}
        data={rows as ChartRow[]}
        margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
        onClick={(state) => {
          const index = Number(state?.activeIndex ?? Number.NaN);
          const clicked = Number.isInteger(index) ? rows[index] : undefined;
          if (clicked) onPoint(clicked.time, undefined);
        }}
      >
        <CartesianGrid stroke="#e2e4ea" vertical={false} />
        <XAxis dataKey="time" tick={AXIS} tickFormatter={timeLabel} minTickGap={24} />
        <YAxis tick={AXIS} width={56} tickFormatter={format} allowDecimals={false} />
        <Tooltip
          formatter={(shown) => (typeof shown === "number" ? format(shown) : String(shown))}
          labelFormatter={(label) => timeLabel(String(label))}
          {...(focus ? { active: true, defaultIndex: focus.row } : {})}
        />
        {lines.length > 1 ? <Legend /> : null}
        {lines.map((name, i) => (
          <Line
            key={name}
            type="monotone"
            dataKey={(data: ChartRow) => data.values[name] ?? 0}
            name={name}
            stroke={colourOf(i)}
            strokeWidth={2}
            dot={false}
            activeDot={{
              r: 5,
              cursor: "pointer",
              onClick: (_event: unknown, dot: unknown) => {
                const clicked = (dot as { payload?: ChartRow }).payload;
                if (clicked) onPoint(clicked.time, name);
              },
            }}
            isAnimationActive={false}
          />
        ))}
        {row && value !== undefined && focus ? (
          <ReferenceDot
            x={row.time}
            y={value}
            r={7}
            fill="none"
            stroke={colourOf(focus.line)}
            strokeWidth={3}
            className="chart-focus"
          />
        ) : null}
      </LineChart>
      <p id={helpId} className="visually-hidden">
        Arrow keys move between points, up and down between lines; Enter opens the traces of a point.
      </p>
      <p className="chart-readout" aria-live="polite">
        {row && line !== undefined && value !== undefined
          ? `${timeLabel(row.time)}${lines.length > 1 ? `, ${line}` : ""}: ${format(value)}`
          : ""}
      </p>
    </div>
  );
}
