import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import type { ChartRow } from "./dashboard-range";

/*
 * The dashboard's charts, loaded with the dashboard (recharts, as decision 0032 chose for every
 * chart). A click on a point asks for the traces behind it: its bucket, and its line's group.
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
  return (
    <LineChart
      responsive
      style={{ width: "100%", height: 200 }}
      data={rows as ChartRow[]}
      margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
      title={title}
      onClick={(state) => {
        const index = Number(state?.activeIndex ?? Number.NaN);
        const row = Number.isInteger(index) ? rows[index] : undefined;
        if (row) onPoint(row.time, undefined);
      }}
    >
      <CartesianGrid stroke="#e2e4ea" vertical={false} />
      <XAxis dataKey="time" tick={AXIS} tickFormatter={timeLabel} minTickGap={24} />
      <YAxis tick={AXIS} width={56} tickFormatter={format} allowDecimals={false} />
      <Tooltip
        formatter={(value) => (typeof value === "number" ? format(value) : String(value))}
        labelFormatter={(label) => timeLabel(String(label))}
      />
      {lines.length > 1 ? <Legend /> : null}
      {lines.map((line, i) => (
        <Line
          key={line}
          type="monotone"
          dataKey={(row: ChartRow) => row.values[line] ?? 0}
          name={line}
          stroke={colourOf(i)}
          strokeWidth={2}
          dot={false}
          activeDot={{
            r: 5,
            cursor: "pointer",
            onClick: (_event: unknown, dot: unknown) => {
              const row = (dot as { payload?: ChartRow }).payload;
              if (row) onPoint(row.time, line);
            },
          }}
          isAnimationActive={false}
        />
      ))}
    </LineChart>
  );
}
