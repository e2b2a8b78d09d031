import type { H2loadOutcome, Spread } from "./h2load";
import type { Latencies, Outcome, Waits } from "./overload-samples";
import * as settings from "./overload-settings";
import type { PacedResult } from "./paced";
import { machine, type VerdictRow, verdictTable, writeSection } from "./report";

/** What a run of the overload benchmark measured, for its table. */
export interface OverloadMeasurements {
  /** Edits per second of the closed-loop peak run. */
  peak: number;
  overloadRate: number;
  outcome: Outcome;
  /** The load generator's event-loop delay during the overload, in ms. */
  generatorDelay: { p99: number; max: number };
  /** How long the overload took, warm-up included, in seconds. */
  overloadWall: number;
  cpuSeconds: Record<string, number>;
  /** Why the audit of the acknowledged edits failed; empty when every one was found. */
  audit: string;
  acknowledged: number;
  halfRate: number;
  alone: PacedResult;
  contended: PacedResult;
  /** The same overload from h2load: its requests, its connections, the rate it reached, versions written. */
  native: { outcome: H2loadOutcome; clients: number; sentPerSecond: number; written: number };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const spread = (values: Latencies) => `p50 ${ms(values.p50)}, p99 ${ms(values.p99)}, max ${ms(values.max)}`;

/** The two rows of edits that must each be answered within `withinMs`: from when sent, and from when due. */
const boundedRows = (what: string, waits: Waits, withinMs: number): VerdictRow[] =>
  (["sent", "due"] as const).map((from) => {
    const wait = from === "sent" ? waits.fromSent : waits.fromDue;
    return [`${what}, from when ${from}`, spread(wait), `every one ≤ ${withinMs} ms`, wait.max <= withinMs];
  });

/** The overload's table (measurement, measured, target, verdict), and its rows. */
export function overloadTable(m: OverloadMeasurements): { table: string; rows: VerdictRow[] } {
  const { outcome } = m;
  const rows: VerdictRow[] = [
    [`peak edit rate (${settings.PEAK_CLIENTS} clients, closed loop)`, `${m.peak.toFixed(0)}/s`, "—", null],
    [
      `offered: ${settings.OVERLOAD_FACTOR}× the peak for ${settings.OVERLOAD_SECONDS} s, open loop`,
      `${m.overloadRate}/s: ${outcome.measured.toLocaleString("en")} edits`,
      "—",
      null,
    ],
    [
      "answers",
      `${outcome.accepted.fromSent.count} accepted (${(outcome.accepted.fromSent.count / settings.OVERLOAD_SECONDS).toFixed(0)}/s), ${outcome.refused.fromSent.count} refused (${outcome.reasons}), ${outcome.others}; ${outcome.fresh} sent on a connection opened for it`,
      "—",
      null,
    ],
    ...boundedRows("accepted edits", outcome.accepted, settings.ACCEPTED_WITHIN_MS),
    ...boundedRows("refused edits (503, 429)", outcome.refused, settings.REFUSED_WITHIN_MS),
    [
      "the generator's own wait (from due to sent)",
      `${spread(outcome.lag)}; its event loop's delay p99 ${ms(m.generatorDelay.p99)}, max ${ms(m.generatorDelay.max)}`,
      "—",
      null,
    ],
    [
      `CPU seconds in the ${m.overloadWall.toFixed(0)} s of overload (${(2 * m.overloadWall).toFixed(0)} on 2 cores)`,
      Object.entries(m.cpuSeconds)
        .map(([name, seconds]) => `${name} ${seconds.toFixed(1)}`)
        .join(", "),
      "—",
      null,
    ],
    [
      "acknowledged edits in the database afterwards",
      m.audit === ""
        ? `all ${m.acknowledged.toLocaleString("en")} (warm-up included), versions without gaps`
        : (m.audit.split("\n")[0]?.slice(0, 200) ?? ""),
      "none lost",
      m.audit === "",
    ],
    ...nativeRows(m),
    [
      `edits at half the peak (${m.halfRate}/s, paced), alone`,
      `p50 ${ms(m.alone.p50)}, p99 ${ms(m.alone.p99)}; ${m.alone.failures} failed`,
      "—",
      null,
    ],
    [
      `edits at half the peak (${m.halfRate}/s, paced), beside a process spinning on a core`,
      `p50 ${ms(m.contended.p50)}, p99 ${ms(m.contended.p99)}; ${m.contended.failures} failed`,
      `p99 ≤ ${settings.CONTENDED_P99_MS} ms`,
      m.contended.p99 <= settings.CONTENDED_P99_MS && m.contended.failures === 0,
    ],
  ];
  return { table: verdictTable(["measurement", "measured", "target"], rows), rows };
}

/** The rows of the overload sent by h2load, against the restated targets (99th percentiles). */
function nativeRows({ overloadRate, native }: OverloadMeasurements): VerdictRow[] {
  const { outcome } = native;
  const spreadOf = (s: Spread) =>
    `${s.count.toLocaleString("en")}: p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)}`;
  return [
    [
      `h2load: ${settings.OVERLOAD_FACTOR}× the peak (${overloadRate}/s) on ${native.clients} connections, ${settings.OVERLOAD_SECONDS} s after ${settings.WARMUP_SECONDS} s`,
      `sent ${native.sentPerSecond.toFixed(0)}/s; ${outcome.measured.toLocaleString("en")} measured, ${outcome.others} neither accepted nor refused`,
      "—",
      null,
    ],
    [
      "h2load: accepted edits, from sending",
      spreadOf(outcome.accepted),
      `p99 ≤ ${settings.ACCEPTED_WITHIN_MS} ms`,
      outcome.accepted.p99 <= settings.ACCEPTED_WITHIN_MS,
    ],
    [
      "h2load: refused edits (503, 429), from sending",
      spreadOf(outcome.refused),
      `p99 ≤ ${settings.REFUSED_WITHIN_MS} ms`,
      outcome.refused.count === 0 || outcome.refused.p99 <= settings.REFUSED_WITHIN_MS,
    ],
    [
      "h2load: acknowledged edits in the database afterwards",
      `${outcome.acknowledged.toLocaleString("en")} acknowledged (warm-up included), ${native.written.toLocaleString("en")} versions written`,
      "none lost",
      native.written >= outcome.acknowledged,
    ],
  ];
}

export function writeOverloadReport(table: string): void {
  const platformSettings = Object.entries({ ...settings.gatewaySettings, ...settings.writerSettings })
    .map(([name, value]) => `\`${name}=${value}\``)
    .join(", ");
  writeSection(
    "overload",
    `## Bounded waits under overload

Measured by \`npm run bench -- overload --write\` (bench/src/overload.ts) on ${new Date().toISOString().slice(0, 10)},
on one machine (${machine()}) running everything at once: PostgreSQL, NATS, the distributed platform with
one writer (${platformSettings === "" ? "default settings" : platformSettings}) and the load generators. ${settings.DATASETS} datasets of ${settings.ROWS} rows take edits spread over
their rows. The peak rate is \`wrk\`'s with ${settings.PEAK_CLIENTS} connections in a closed loop for ${settings.PEAK_SECONDS} s. The overload
is ${settings.OVERLOAD_FACTOR} times that rate from an open-loop generator (bench/src/paced.ts) on up to ${settings.CONNECTIONS} connections
(opened beforehand), for ${settings.OVERLOAD_SECONDS} s after ${settings.WARMUP_SECONDS} s at that rate unmeasured; each edit is timed
both from when it was due (what a client would see) and from when the generator let go of it, written on
an open connection or a new one begun for it (the platform's part: the difference is the generator's own
wait, for its event loop or a free connection). Accepted means answered
200; refused, 503 or 429. Every edit acknowledged with 200, the warm-up's included, is then looked up
in the database (\`@svc/testing/audit\`). The rows marked h2load send the same overload again from
Debian's \`h2load\` (bench/src/h2load.ts), a native generator whose own waits are not in the times it
logs, against the restated targets: p99 of accepted edits within 1 s and of refused ones within 50 ms,
every acknowledged edit written (each is a version of its own). The last two rows send edits at half the peak rate for
${settings.CONTENDED_SECONDS} s after ${settings.WARMUP_SECONDS} s unmeasured, alone and then beside \`node -e "for(;;){}"\` spinning on one
of the two cores, each after the database was vacuumed and checkpointed.

${table}`,
  );
}
