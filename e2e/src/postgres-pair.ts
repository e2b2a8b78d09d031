import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { programsAvailable } from "@svc/testing/programs";
import { freePort, root } from "./platform";

const run = promisify(execFile);

/** Where Debian keeps PostgreSQL 15's server programs; PG_BIN says otherwise. */
const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
const SCRIPT = join(root, "scripts/postgres-standby.sh");

/**
 * Whether a primary and a standby can be started here: PostgreSQL's server programs (Debian's
 * postgresql-15), and runuser when the tests run as root. Skips loudly, or fails with
 * SVC_REQUIRE_INFRA=1 (see `programsAvailable`).
 */
export function postgresPairAvailable(): boolean {
  const programs = ["initdb", "pg_ctl", "pg_basebackup"].map((p) => join(PG_BIN, p));
  return programsAvailable(...programs, ...(process.getuid?.() === 0 ? ["runuser"] : []));
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
