import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { type Distribution, formatNumber, type TrendPoint } from "./scores";

/*
 * The charts, loaded when a page first shows one (recharts is the largest part of these pages). See
 * docs/decisions/0032-charts.md for why recharts.
 */

/** Distinct on white and to most colour-blind eyes (Okabe and Ito's palette, darkened for contrast). */
const COLOURS = ["#4f46e5", "#c2410c", "#047857", "#a21caf", "#0369a1", "#a16207", "#be123c", "#4b5563"];
const colourOf = (i: number): string => COLOURS[i % COLOURS.length] ?? "#4f46e5";

const AXIS = { fontSize: 12, fill: "#5d6273" };
const SIZE = { width: "100%", height: 240 } as const;

/** Each score's mean across the dataset's experiments, oldest first: one line per score. */
export function ScoreTrendChart({
  points,
  names,
}: {
  points: readonly TrendPoint[];
  names: readonly string[];
}) {
  // Read by function, not by key path: a score's name may hold a dot or a bracket.
  const data = points.map((point) => ({ ...point, when: new Date(point.createdAt).toLocaleString() }));
  return (
    <LineChart
      responsive
      style={SIZE}
      data={data}
      margin={{ top: 8, right: 24, bottom: 8, left: 0 }}
      title="Each score's mean across the dataset's experiments, oldest first"
    >
      <CartesianGrid stroke="#e2e4ea" vertical={false} />
      <XAxis dataKey="name" tick={AXIS} interval="preserveStartEnd" padding={{ left: 40, right: 40 }} />
      <YAxis tick={AXIS} width={48} tickFormatter={formatNumber} />
      <Tooltip
        formatter={(value) => (typeof value === "number" ? formatNumber(value) : String(value))}
        labelFormatter={(label, payload) => `${String(label)} · ${String(payload[0]?.payload?.when ?? "")}`}
      />
      <Legend />
      {names.map((name, i) => (
        <Line
          key={name}
          type="monotone"
          dataKey={(point: TrendPoint) => point.means[name] ?? null}
          name={name}
          stroke={colourOf(i)}
          strokeWidth={2}
          dot={{ r: 3 }}
          connectNulls
          isAnimationActive={false}
        />
      ))}
    </LineChart>
  );
}

/** One score's spread over the results: a histogram of its numbers, or a count per category. */
export function DistributionChart({ distribution, index }: { distribution: Distribution; index: number }) {
  return (
    <BarChart
      responsive
      style={{ width: "100%", height: 140 }}
      data={distribution.bars}
      margin={{ top: 8, right: 8, bottom: 8, left: 0 }}
      barCategoryGap={distribution.kind === "numeric" ? 1 : "20%"}
      title={`${distribution.name}: ${distribution.kind === "numeric" ? "histogram of its values" : "results per value"}`}
    >
      <CartesianGrid stroke="#e2e4ea" vertical={false} />
      <XAxis dataKey="label" tick={AXIS} interval="preserveStartEnd" />
      <YAxis tick={AXIS} width={40} allowDecimals={false} />
      <Tooltip />
      <Bar dataKey="count" name="Results" fill={colourOf(index)} isAnimationActive={false} />
    </BarChart>
  );
}
