import { Agent, request } from "node:http";

export interface PacedResult {
  /** Requests per second actually sent. */
  rate: number;
  /** Milliseconds from each request's scheduled start to its answer. */
  p50: number;
  p99: number;
  total: number;
  failures: number;
}

export interface PacedOptions {
  url: string;
  apiKey: string;
  /** Requests per second, spread evenly over each second. */
  rate: number;
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
  const total = Math.round(options.rate * options.durationSeconds);
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
            latencies.push(performance.now() - due);
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
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return { rate: total / elapsed, p50: at(0.5), p99: at(0.99), total, failures };
}
