import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc's CPU times: 100 on every Linux this runs on. */
const TICKS = 100;

/** CPU seconds (user and system) a process has used so far; 0 once it has gone. */
function cpuSecondsOf(pid: number): number {
  try {
    // The command name, in parentheses, may hold spaces: the fields that follow are counted from its end.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** Every process whose command name is `comm` and whose command line holds `fragment`. */
function pidsNamed(comm: string, fragment: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return (
          readFileSync(`/proc/${pid}/comm`, "utf8").trim() === comm &&
          readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(fragment)
        );
      } catch {
        return false;
      }
    });
}

/** Named groups of processes whose CPU time a phase is to account for. */
export type ProcessGroups = Record<string, () => number[]>;

/**
 * The processes named `comm` whose command line holds `fragment` (PostgreSQL names a connection's
 * database in its process title), found anew at each reading: PostgreSQL forks one per connection.
 */
export const byCommand =
  (comm: string, fragment = "") =>
  () =>
    pidsNamed(comm, fragment);

/**
 * Starts counting the CPU time of each group; the function it returns gives each group's CPU seconds
 * since then. A process that exits in between is missed, one that starts is counted whole.
 */
export function countCpu(groups: ProcessGroups): () => Record<string, number> {
  const before = new Map<number, number>();
  for (const pids of Object.values(groups)) for (const pid of pids()) before.set(pid, cpuSecondsOf(pid));
  const machineBefore = machineBusySeconds();
  return () => {
    const counted = Object.entries(groups).map(([name, pids]): [string, number] => [
      name,
      pids().reduce((sum, pid) => sum + cpuSecondsOf(pid) - (before.get(pid) ?? 0), 0),
    ]);
    const busy = machineBusySeconds() - machineBefore;
    const rest = busy - counted.reduce((sum, [, seconds]) => sum + seconds, 0);
    return Object.fromEntries([...counted, ["everything else on the machine", Math.max(0, rest)]]);
  };
}

/** CPU seconds this machine has spent busy (not idle, not waiting for I/O) since it started. */
function machineBusySeconds(): number {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  const [user, nice, system, , , irq, softirq] = line.split(/\s+/).slice(1).map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0)) / TICKS;
}
