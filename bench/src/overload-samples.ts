import { percentile } from "./measure";
import type { PacedSample } from "./paced";

/*
 * What the overload's requests came back with: how long the accepted and the refused ones waited,
 * why the refused ones were refused, and how that went second by second.
 */

export interface Latencies {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/** Latencies from when an edit was sent and from when it was due. */
export interface Waits {
  fromSent: Latencies;
  fromDue: Latencies;
}

/** Of the values that are numbers (a request that never got a connection has no send time). */
function latencies(all: number[]): Latencies {
  const values = all.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  return {
    count: values.length,
    p50: percentile(values, 0.5),
    p99: percentile(values, 0.99),
    max: values[values.length - 1] ?? Number.NaN,
  };
}

function isRefusal(status: number): boolean {
  return status === 503 || status === 429;
}

/** Why the gateway or the writer refused: the first words of the 503's message say which. */
function reasonOf(sample: PacedSample): string {
  if (sample.status === 429) return "rate limited";
  const message = sample.body ?? "";
  if (message.includes("at capacity")) return "gateway at capacity";
  if (message.includes("The platform is behind")) return "gateway queueing";
  if (message.includes("The writer is behind")) return "writer queue";
  // A service's bus subscription answers so beyond its requests at once (512), as when none listens.
  if (message.includes("No service is answering")) return "writer at its bus limit";
  const error = /"error":"([^"]{0,60})/.exec(message)?.[1];
  return `other 503 (${error ?? message.slice(0, 60)}…)`;
}

export type Outcome = ReturnType<typeof summarise>;

/** The measured part of the overload: latencies of the accepted and refused edits, both ways. */
export function summarise(samples: readonly PacedSample[]) {
  const measured = samples.filter((sample) => !sample.warmup);
  const of = (keep: (sample: PacedSample) => boolean): Waits => {
    const kept = measured.filter(keep);
    return {
      fromSent: latencies(kept.map((sample) => sample.answered - sample.sent)),
      fromDue: latencies(kept.map((sample) => sample.answered - sample.due)),
    };
  };
  const counts = (list: string[]) => {
    const tally = new Map<string, number>();
    for (const item of list) tally.set(item, (tally.get(item) ?? 0) + 1);
    return [...tally].map(([what, count]) => `${what} ${count}`).join(", ");
  };
  // Neither accepted nor refused: counted over the warm-up too, since a lost answer matters whenever it happens.
  const others = samples.filter((sample) => sample.status !== 200 && !isRefusal(sample.status));
  return {
    measured: measured.length,
    accepted: of((sample) => sample.status === 200),
    refused: of((sample) => isRefusal(sample.status)),
    reasons: counts(measured.filter((sample) => isRefusal(sample.status)).map(reasonOf)) || "none",
    others:
      others.length === 0
        ? "no other answer"
        : `other answers, warm-up included: ${counts(others.map((sample) => (sample.status === 0 ? "no answer" : String(sample.status))))}`,
    lag: latencies(measured.map((sample) => sample.sent - sample.due)),
    fresh: measured.filter((sample) => sample.fresh).length,
  };
}

/** Second by second, to see where in the overload the time went (printed, not recorded). */
export function printTimeline(samples: readonly PacedSample[]): void {
  const first = samples[0]?.due ?? 0;
  const seconds = new Map<number, PacedSample[]>();
  for (const sample of samples) {
    const second = Math.floor((sample.due - first) / 1000);
    const list = seconds.get(second);
    if (list) list.push(sample);
    else seconds.set(second, [sample]);
  }
  console.log(
    "\nsecond | accepted | refused | accepted p99/max from sent | refused p99/max from sent | generator wait p99 | new connections",
  );
  for (const [second, list] of seconds) {
    const accepted = latencies(list.filter((s) => s.status === 200).map((s) => s.answered - s.sent));
    const refused = latencies(list.filter((s) => isRefusal(s.status)).map((s) => s.answered - s.sent));
    const lag = latencies(list.map((s) => s.sent - s.due));
    console.log(
      `${String(second).padStart(6)} | ${String(accepted.count).padStart(8)} | ${String(refused.count).padStart(7)} | ${accepted.p99.toFixed(0).padStart(6)} / ${accepted.max.toFixed(0).padEnd(6)} | ${refused.p99.toFixed(0).padStart(6)} / ${refused.max.toFixed(0).padEnd(6)} | ${lag.p99.toFixed(0).padStart(18)} | ${list.filter((s) => s.fresh).length}`,
    );
  }
}
