import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useMemo } from "react";
import { useNavigate, useParams, useSearchParams } from "react-router";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { MetricChart } from "./dashboard-charts";
import {
  type Bucket,
  chartRows,
  listAddress,
  type MetricPoint,
  type Preset,
  presetRanges,
  rangeOf,
} from "./dashboard-range";
import { formatCost } from "./gen-ai";
import { traceMetricsQuery } from "./queries";
import { instantOfLocal, localInputValue } from "./trace-query";
import { TracesTabs } from "./traces-tabs";

const isPreset = (value: string | null): value is Preset => value !== null && value in presetRanges;

/** How a bucket's start reads on the axis: the time for minutes and hours, the date for days. */
const timeLabelFor =
  (bucket: Bucket) =>
  (time: string): string => {
    const date = new Date(time);
    return bucket === "day"
      ? date.toLocaleDateString(undefined, { month: "short", day: "numeric" })
      : bucket === "hour"
        ? date.toLocaleString(undefined, {
            month: "short",
            day: "numeric",
            hour: "2-digit",
            minute: "2-digit",
          })
        : date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
  };

const count = (value: number) => Math.round(value).toLocaleString();

/**
 * The project's traces over time: how many, how many failed, how long they took (p50, p95), their
 * tokens and cost by model, over a range the person picks (kept in the address). A click on a point
 * opens the traces list filtered to its bucket and, on a model's line, to that model.
 */
export function DashboardPage() {
  const { projectSlug = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const preset = params.get("range");
  const customFrom = params.get("from");
  const customTo = params.get("to");
  // The range is fixed when the address changes, not at every render: "now" would move each time.
  const range = useMemo(
    () =>
      customFrom && customTo && !Number.isNaN(Date.parse(customFrom)) && !Number.isNaN(Date.parse(customTo))
        ? rangeOf(
            { from: new Date(customFrom).toISOString(), to: new Date(customTo).toISOString() },
            Date.now(),
          )
        : rangeOf(isPreset(preset) ? preset : "day", Date.now()),
    [preset, customFrom, customTo],
  );
  const all = useQuery(traceMetricsQuery(projectSlug, range, "all"));
  const byModel = useQuery(traceMetricsQuery(projectSlug, range, "model"));
  const timeLabel = timeLabelFor(range.bucket);
  const open = (time: string, model: string | undefined) =>
    navigate(listAddress(projectSlug, time, range.bucket, model));

  const pick = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const choice = String(form.get("range") ?? "day");
    const next = new URLSearchParams();
    if (choice === "custom") {
      const from = instantOfLocal(String(form.get("from") ?? ""));
      const to = instantOfLocal(String(form.get("to") ?? ""));
      if (from && to && from < to) {
        next.set("from", from);
        next.set("to", to);
      }
    } else next.set("range", choice);
    setParams(next, { replace: true });
  };

  const totals = sum(all.data?.series ?? []);
  const measure = (of: (point: MetricPoint) => number) => chartRows(all.data?.series ?? [], of);
  const perModel = (of: (point: MetricPoint) => number) => chartRows(byModel.data?.series ?? [], of);
  const latency = chartRows(
    (all.data?.series ?? []).flatMap((point) => [
      { ...point, group: "p50", value: point.latencyP50Ms },
      { ...point, group: "p95", value: point.latencyP95Ms },
    ]),
    (point) => (point as MetricPoint & { value: number }).value,
  );
  const errors = measure((point) => point.errors);
  const traces = perModel((point) => point.traces);
  const tokens = perModel((point) => point.tokensInput + point.tokensOutput);
  const cost = perModel((point) => point.costMicrocents);

  return (
    <>
      <PageHeader
        title="Dashboard"
        crumbs={[
          { label: "Projects", to: "/projects" },
          { label: projectSlug, to: `/projects/${projectSlug}` },
        ]}
      />
      <TracesTabs projectSlug={projectSlug} />
      <form className="toolbar trace-filters" onSubmit={pick} key={params.toString()}>
        <label className="inline-field">
          Range
          <select
            name="range"
            defaultValue={customFrom && customTo ? "custom" : isPreset(preset) ? preset : "day"}
          >
            {Object.entries(presetRanges).map(([value, choice]) => (
              <option key={value} value={value}>
                {choice.label}
              </option>
            ))}
            <option value="custom">Custom</option>
          </select>
        </label>
        <label className="inline-field">
          From
          <input type="datetime-local" name="from" defaultValue={localInputValue(range.from)} />
        </label>
        <label className="inline-field">
          To
          <input type="datetime-local" name="to" defaultValue={localInputValue(range.to)} />
        </label>
        <button type="submit" className="button">
          Show
        </button>
        <span className="muted">One point per {range.bucket}</span>
      </form>
      {all.error ? <ErrorMessage error={all.error} /> : null}
      {byModel.error ? <ErrorMessage error={byModel.error} /> : null}
      {all.isPending ? (
        <p className="page-status" role="status">
          Loading the metrics…
        </p>
      ) : (
        <>
          <dl className="trace-summary trace-summary-row dashboard-totals">
            <div>
              <dt>Traces</dt>
              <dd>{count(totals.traces)}</dd>
            </div>
            <div>
              <dt>Errors</dt>
              <dd>{count(totals.errors)}</dd>
            </div>
            <div>
              <dt>Tokens</dt>
              <dd>{count(totals.tokens)}</dd>
            </div>
            <div>
              <dt>Cost</dt>
              <dd>{formatCost(totals.cost)}</dd>
            </div>
          </dl>
          <div className="dashboard-grid">
            <Panel title="Traces by model">
              <MetricChart
                title="Traces by model"
                {...traces}
                lines={traces.groups}
                format={count}
                timeLabel={timeLabel}
                onPoint={open}
              />
            </Panel>
            <Panel title="Errors">
              <MetricChart
                title="Traces with an error"
                {...errors}
                lines={errors.groups}
                format={count}
                timeLabel={timeLabel}
                onPoint={(time) => open(time, undefined)}
              />
            </Panel>
            <Panel title="Latency">
              <MetricChart
                title="Trace duration, p50 and p95"
                {...latency}
                lines={latency.groups}
                format={(ms) => `${count(ms)} ms`}
                timeLabel={timeLabel}
                onPoint={(time) => open(time, undefined)}
              />
            </Panel>
            <Panel title="Tokens by model">
              <MetricChart
                title="Tokens by model"
                {...tokens}
                lines={tokens.groups}
                format={count}
                timeLabel={timeLabel}
                onPoint={open}
              />
            </Panel>
            <Panel title="Cost by model">
              <MetricChart
                title="Cost by model"
                {...cost}
                lines={cost.groups}
                format={formatCost}
                timeLabel={timeLabel}
                onPoint={open}
              />
            </Panel>
          </div>
        </>
      )}
    </>
  );
}

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="chart-panel" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

function sum(series: readonly MetricPoint[]) {
  return series.reduce(
    (total, point) => ({
      traces: total.traces + point.traces,
      errors: total.errors + point.errors,
      tokens: total.tokens + point.tokensInput + point.tokensOutput,
      cost: total.cost + point.costMicrocents,
    }),
    { traces: 0, errors: 0, tokens: 0, cost: 0 },
  );
}
