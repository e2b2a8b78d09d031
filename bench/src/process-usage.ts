import { readFileSync } from "node:fs";
import type { Platform } from "@svc/testing/platform";
import { byCommand, countCpu } from "./cpu-time";

/**
 * The highest resident set of each platform process while `work` runs, sampled every 100 ms, and the
 * CPU seconds each process (and PostgreSQL, NATS and this client) spent meanwhile.
 */
export async function watchProcesses<T>(
  platform: Platform,
  work: () => Promise<T>,
): Promise<{ result: T; peaks: Record<string, number>; cpu: Record<string, number> }> {
  const peaks: Record<string, number> = {};
  const cpu = countCpu({
    ...Object.fromEntries(
      [...new Set(platform.processes.map((proc) => proc.name))].map((name) => [
        name,
        () =>
          platform.processes.flatMap((proc) =>
            proc.name === name && proc.child.pid ? [proc.child.pid] : [],
          ),
      ]),
    ),
    "PostgreSQL (this database)": byCommand(
      "postgres",
      ` ${new URL(platform.databaseUrl).pathname.slice(1)} `,
    ),
    "NATS (shared)": byCommand("nats-server"),
    client: () => [process.pid],
  });
  const sample = () => {
    for (const proc of platform.processes) {
      try {
        const status = readFileSync(`/proc/${proc.child.pid}/status`, "utf8");
        const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
        const name = `${proc.name}:${proc.child.pid}`;
        peaks[name] = Math.max(peaks[name] ?? 0, kb / 1024);
      } catch {
        // The process has gone; its last sample stands.
      }
    }
  };
  const timer = setInterval(sample, 100);
  try {
    const result = await work();
    sample();
    return { result, peaks, cpu: cpu() };
  } finally {
    clearInterval(timer);
  }
}
