import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { percentile } from "./measure";

/** One request as h2load logged it: when it started, how it was answered, how long it took. */
export interface LoggedRequest {
  /** Milliseconds since the epoch. */
  startMs: number;
  /** -1 for a stream that failed (no answer). */
  status: number;
  durationMs: number;
}

export interface H2loadOptions {
  baseUrl: string;
  apiKey: string;
  /** Connections, each sending `rate / clients` requests a second, one at a time. */
  clients: number;
  /** Requests per second, over all connections. */
  rate: number;
  durationSeconds: number;
  method: "PATCH";
  /** The paths the connections take in turn. */
  paths: readonly string[];
  body: string;
}

/**
 * Sends a steady load with Debian's `h2load` (nghttp2-client), a native generator whose own waits
 * do not show in the times it logs: every request's start, status and duration, from its
 * `--log-file`. HTTP/1.1, as the platform's clients speak it. Each connection sends at its rate but one
 * request at a time, so a connection whose answer is late sends its next one late: the rate it
 * reached (`sentPerSecond`) says how far that held the load back.
 */
export function h2load(options: H2loadOptions): { requests: LoggedRequest[]; sentPerSecond: number } {
  const dir = mkdtempSync(join(tmpdir(), "svc-h2load-"));
  try {
    const uris = join(dir, "uris.txt");
    const body = join(dir, "body.json");
    const log = join(dir, "requests.tsv");
    writeFileSync(uris, `${options.paths.map((path) => `${options.baseUrl}${path}`).join("\n")}\n`);
    writeFileSync(body, options.body);
    const run = spawnSync(
      "h2load",
      [
        "--h1",
        `--clients=${options.clients}`,
        "--threads=1",
        `--rps=${(options.rate / options.clients).toFixed(3)}`,
        `--duration=${options.durationSeconds}`,
        "--max-concurrent-streams=1",
        `--header=authorization: Bearer ${options.apiKey}`,
        `--header=:method: ${options.method}`,
        "--header=content-type: application/json",
        `--data=${body}`,
        `--input-file=${uris}`,
        `--log-file=${log}`,
      ],
      { encoding: "utf8", maxBuffer: 64 * 2 ** 20 },
    );
    if (run.status !== 0) throw new Error(`h2load failed (${run.status}): ${run.stderr || run.stdout}`);
    const requests = readFileSync(log, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line): LoggedRequest => {
        const [start = "0", status = "-1", duration = "0"] = line.split("\t");
        return { startMs: Number(start) / 1000, status: Number(status), durationMs: Number(duration) / 1000 };
      });
    const span = (lastStart(requests) - firstStart(requests)) / 1000;
    return { requests, sentPerSecond: span > 0 ? requests.length / span : 0 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Folded, not spread into Math.min: a run logs hundreds of thousands of requests.
const firstStart = (requests: readonly LoggedRequest[]) =>
  requests.reduce((first, request) => Math.min(first, request.startMs), Number.POSITIVE_INFINITY);
const lastStart = (requests: readonly LoggedRequest[]) =>
  requests.reduce((last, request) => Math.max(last, request.startMs), Number.NEGATIVE_INFINITY);

/** The spread of some requests' durations, in ms. */
export interface Spread {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

function spreadOf(requests: readonly LoggedRequest[]): Spread {
  const times = requests.map((request) => request.durationMs).sort((a, b) => a - b);
  return {
    count: times.length,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    max: times[times.length - 1] ?? Number.NaN,
  };
}

/**
 * The logged requests after the first `warmupSeconds`: accepted (200), refused (503 or 429) and the
 * rest; and how many were acknowledged in all, the warm-up's included (each is a version written).
 */
export function outcomeOf(requests: readonly LoggedRequest[], warmupSeconds: number) {
  const first = firstStart(requests);
  const measured = requests.filter((request) => request.startMs >= first + warmupSeconds * 1000);
  return {
    measured: measured.length,
    accepted: spreadOf(measured.filter((request) => request.status === 200)),
    refused: spreadOf(measured.filter((request) => request.status === 503 || request.status === 429)),
    others: measured.filter((request) => ![200, 429, 503].includes(request.status)).length,
    acknowledged: requests.filter((request) => request.status === 200).length,
  };
}
export type H2loadOutcome = ReturnType<typeof outcomeOf>;
