import { ConnectionPool } from "./http1";
import { percentile } from "./measure";

export interface PacedResult {
  /** Requests per second actually sent. */
  rate: number;
  /** Milliseconds from each request's scheduled start to its answer. */
  p50: number;
  p99: number;
  /** Requests measured (the warm-up's left out). */
  total: number;
  /** Requests answered with an error or not at all, the warm-up's included. */
  failures: number;
}

export interface PacedOptions {
  url: string;
  apiKey: string;
  /** Requests per second, spread evenly over each second. */
  rate: number;
  /**
   * Sent at the same rate before the measured part and left out of it: the first seconds of a path
   * time its JIT compilation, new connections and statements being prepared, not its steady state.
   */
  warmupSeconds: number;
  durationSeconds: number;
  connections: number;
  method: "GET" | "PATCH";
  next(n: number): { path: string; body?: string };
  /** Which answers' bodies to keep (none by default: they are read and dropped). */
  keepBody?(status: number): boolean;
  /** Connections opened before the first request (none by default: they open as the load needs them). */
  preconnect?: number;
  /** Stops sending once it says so, before `durationSeconds` are over: a load for as long as other work runs. */
  until?: () => boolean;
}

/** One request of a paced load, its times on `performance.now()`'s clock. */
export interface PacedSample {
  n: number;
  /** When it was due: the schedule, whatever the generator managed. */
  due: number;
  /**
   * When the generator let go of it: written on an open connection, or a new connection begun for it.
   * After `due` by however long it waited in the generator, behind its own event loop or for a free
   * connection once all `connections` were busy.
   */
  sent: number;
  /** Sent on a connection opened for it: its answer's wait includes the connection's set-up. */
  fresh: boolean;
  answered: number;
  /** 0 when no answer came (the connection failed). */
  status: number;
  /** Its body, when `keepBody` asked for it. */
  body?: string;
  /** Sent during the warm-up: left out of the measurements, but it was sent and may have been applied. */
  warmup: boolean;
}

export interface PacedRun {
  samples: PacedSample[];
  /** Seconds from the first measured request's due time to the last answer. */
  measuredSeconds: number;
}

/**
 * An open-loop load at a steady rate: the n-th request is due at start + n / rate, whether or not
 * earlier ones have been answered, and its latency runs from when it was due, so that a stall shows
 * in the numbers instead of hiding behind a load generator that waits (coordinated omission).
 * Latency "at half the maximum rate" needs this: a generator that sends each second's quota at once
 * (autocannon's rate option, for one, does) measures a saturated platform for part of every second.
 */
export async function paced(options: PacedOptions): Promise<PacedResult> {
  const { samples, measuredSeconds } = await pacedRequests(options);
  const measured = samples.filter((sample) => !sample.warmup);
  const latencies = measured.map((sample) => sample.answered - sample.due).sort((a, b) => a - b);
  return {
    rate: measured.length / measuredSeconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    total: measured.length,
    failures: samples.filter((sample) => sample.status === 0 || sample.status >= 300).length,
  };
}

/**
 * The load `paced` summarises, every request recorded: when it was due, when it went out and when
 * and how it was answered, so that a caller can tell the platform's time from the generator's own.
 */
export async function pacedRequests(options: PacedOptions): Promise<PacedRun> {
  const target = new URL(options.url);
  const pool = new ConnectionPool(target.hostname, Number(target.port), options.connections);
  const headers = `host: ${target.host}\r\nauthorization: Bearer ${options.apiKey}\r\n`;
  const warmup = Math.round(options.rate * options.warmupSeconds);
  const total = warmup + Math.round(options.rate * options.durationSeconds);
  const samples: PacedSample[] = [];
  await pool.preconnect(options.preconnect ?? 0);
  const started = performance.now();
  const send = async (n: number, due: number) => {
    const { path, body } = options.next(n);
    const sample: PacedSample = {
      n,
      due,
      sent: Number.NaN,
      fresh: false,
      answered: Number.NaN,
      status: 0,
      warmup: n < warmup,
    };
    samples.push(sample);
    const head = `${options.method} ${path} HTTP/1.1\r\n${headers}${body === undefined ? "" : "content-type: application/json\r\n"}`;
    const answer = await pool.send(head, body, (fresh) => {
      sample.sent = performance.now();
      sample.fresh = fresh;
    });
    sample.answered = performance.now();
    sample.status = answer.status;
    if (options.keepBody?.(answer.status)) sample.body = Buffer.from(answer.body, "latin1").toString("utf8");
  };
  const inFlight: Promise<void>[] = [];
  let n = 0;
  while (n < total && !options.until?.()) {
    const now = performance.now();
    while (n < total && started + (n * 1000) / options.rate <= now) {
      inFlight.push(send(n, started + (n * 1000) / options.rate));
      n++;
    }
    const nextDue = started + (n * 1000) / options.rate;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, nextDue - performance.now())));
  }
  await Promise.all(inFlight);
  const measuredSeconds = (performance.now() - started) / 1000 - options.warmupSeconds;
  pool.destroy();
  return { samples, measuredSeconds };
}
