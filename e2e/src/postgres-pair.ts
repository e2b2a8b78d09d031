import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort, root } from "./platform";

const run = promisify(execFile);

/** Where Debian keeps PostgreSQL 15's server programs; PG_BIN says otherwise. */
const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
const SCRIPT = join(root, "scripts/postgres-standby.sh");

/** Why a primary and a standby cannot be started here, or undefined when they can. */
export function postgresPairMissing(): string | undefined {
  const missing = ["initdb", "pg_ctl", "pg_basebackup"].filter((p) => !existsSync(join(PG_BIN, p)));
  if (missing.length > 0) return `PostgreSQL's ${missing.join(", ")} (in ${PG_BIN}, Debian's postgresql-15)`;
  if (process.getuid?.() === 0 && !existsSync("/usr/sbin/runuser"))
    return "runuser, to run PostgreSQL as postgres";
  return undefined;
}

/**
 * A PostgreSQL primary of the test's own (the shared server allows no replication) and a hot standby
 * made from it with pg_basebackup, both on free loopback ports, made and driven by
 * scripts/postgres-standby.sh as an operator would.
 */
export class PostgresPair {
  private constructor(
    private readonly dir: string,
    readonly primaryPort: number,
    readonly standbyPort: number,
  ) {}

  static async start(): Promise<PostgresPair> {
    const dir = mkdtempSync(join(tmpdir(), "svc-pg-pair-"));
    // The servers run as postgres when the test runs as root: it must reach their directories.
    chmodSync(dir, 0o755);
    const pair = new PostgresPair(dir, await freePort(), await freePort());
    try {
      await pair.script("primary", join(dir, "primary"), String(pair.primaryPort));
      await pair.script(
        "standby",
        "127.0.0.1",
        String(pair.primaryPort),
        join(dir, "standby"),
        String(pair.standbyPort),
      );
    } catch (error) {
      await pair.stop();
      throw error;
    }
    return pair;
  }

  /** The primary's `postgres` database, where a test makes its scratch database. */
  get primaryUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.primaryPort}/postgres`;
  }

  /** `url` (a database of the primary) on the standby, under `applicationName`. */
  onStandby(url: string, applicationName: string): string {
    const standby = new URL(url);
    standby.port = String(this.standbyPort);
    standby.searchParams.set("application_name", applicationName);
    return standby.toString();
  }

  private async script(...args: string[]): Promise<void> {
    await run(SCRIPT, args, { env: { ...process.env, PG_BIN }, timeout: 90_000 });
  }

  /** Stops both servers at once (as machines die) and removes their data. */
  async stop(): Promise<void> {
    for (const server of ["standby", "primary"]) {
      const data = join(this.dir, server);
      if (existsSync(join(data, "postmaster.pid"))) {
        await this.script("stop", data, "immediate").catch(() => undefined);
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
