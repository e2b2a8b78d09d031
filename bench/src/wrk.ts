import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface WrkResult {
  requestsPerSecond: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  total: number;
  /** Socket errors and timeouts. */
  errors: number;
  non2xx: number;
}

export interface WrkOptions {
  url: string;
  apiKey: string;
  connections: number;
  durationSeconds: number;
  method: "GET" | "PATCH";
  /**
   * Lua expressions of `n`, the request's number (distinct across wrk's threads): the path of the
   * n-th request, and its body (PATCH only).
   */
  path: string;
  body?: string;
}

/**
 * Drives the gateway with Debian's `wrk`: a load generator in C, so that it takes as little as it
 * can of the CPU the platform and the baseline share on this machine.
 */
export function wrk(options: WrkOptions): WrkResult {
  const dir = mkdtempSync(join(tmpdir(), "svc-wrk-"));
  const script = join(dir, "load.lua");
  writeFileSync(
    script,
    `local threads = 0
local headers = {
  ["Authorization"] = "Bearer ${options.apiKey}",
  ["Content-Type"] = "application/json",
}
function setup(thread)
  thread:set("first", threads)
  threads = threads + 1
end
function init(args)
  count = 0
end
function request()
  local n = first + count * 64
  count = count + 1
  return wrk.format("${options.method}", ${options.path}, headers, ${options.body ?? "nil"})
end
function done(summary, latency, requests)
  io.write(string.format("RESULT %d %d %d %d %d %d %f %f\\n", summary.requests, summary.errors.connect,
    summary.errors.read + summary.errors.write, summary.errors.timeout, summary.errors.status,
    summary.duration, latency:percentile(50), latency:percentile(99)))
end
`,
  );
  const result = spawnSync(
    "wrk",
    [
      "-t",
      "2",
      "-c",
      String(options.connections),
      "-d",
      `${options.durationSeconds}s`,
      "-s",
      script,
      options.url,
    ],
    { encoding: "utf8" },
  );
  if (result.error) throw new Error(`wrk could not run (install Debian's wrk): ${result.error.message}`);
  const line = /RESULT (\d+) (\d+) (\d+) (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+)/.exec(result.stdout);
  if (!line) throw new Error(`wrk printed no result:\n${result.stdout}\n${result.stderr}`);
  const [requests, connect, readWrite, timeouts, status, durationUs, p50Us, p99Us] = line
    .slice(1)
    .map(Number) as [number, number, number, number, number, number, number, number];
  return {
    requestsPerSecond: requests / (durationUs / 1e6),
    p50: p50Us / 1000,
    p99: p99Us / 1000,
    total: requests,
    errors: connect + readWrite + timeouts,
    non2xx: status,
  };
}
