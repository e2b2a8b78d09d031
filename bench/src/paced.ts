import { Agent, request } from "node:http";
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
}

/**
 * An open-loop load at a steady rate: the n-th request is due at start + n / rate, whether or not
 * earlier ones have been answered, and its latency runs from when it was due, so that a stall shows
 * in the numbers instead of hiding behind a load generator that waits (coordinated omission).
 * Latency "at half the maximum rate" needs this: a generator that sends each second's quota at once
 * (autocannon's rate option, for one, does) measures a saturated platform for part of every second.
 */
export async function paced(options: PacedOptions): Promise<PacedResult> {
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const warmup = Math.round(options.rate * options.warmupSeconds);
  const total = warmup + Math.round(options.rate * options.durationSeconds);
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const send = (n: number, due: number) =>
    new Promise<void>((resolve) => {
      const { path, body } = options.next(n);
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path,
          method: options.method,
          agent,
          headers: {
            authorization: `Bearer ${options.apiKey}`,
            ...(body === undefined
              ? {}
              : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }),
          },
        },
        (response) => {
          response.resume();
          response.on("end", () => {
            if (n >= warmup) latencies.push(performance.now() - due);
            if ((response.statusCode ?? 0) >= 300) failures++;
            resolve();
          });
        },
      );
      req.on("error", () => {
        failures++;
        resolve();
      });
      req.end(body);
    });
  const inFlight: Promise<void>[] = [];
  let n = 0;
  while (n < total) {
    const now = performance.now();
    while (n < total && started + (n * 1000) / options.rate <= now) {
      inFlight.push(send(n, started + (n * 1000) / options.rate));
      n++;
    }
    const nextDue = started + (n * 1000) / options.rate;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, nextDue - performance.now())));
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - started) / 1000 - options.warmupSeconds;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rate: (total - warmup) / elapsed,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    total: total - warmup,
    failures,
  };
}
