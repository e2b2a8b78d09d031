import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort, root } from "./processes";
import { programsAvailable } from "./programs";

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

  /** `url` (a database of the primary) as libpq's two hosts, primary first, and `target_session_attrs`. */
  onBoth(url: string, target: string): string {
    const one = new URL(url);
    const hosts = `127.0.0.1:${this.primaryPort},127.0.0.1:${this.standbyPort}`;
    const user = one.username ? `${one.username}@` : "";
    return `postgres://${user}${hosts}${one.pathname}?target_session_attrs=${target}`;
  }

  /**
   * Makes every commit on the primary wait until the standby has it (`synchronous_standby_names`), and
   * resolves once the standby is the synchronous one.
   */
  async replicateSynchronously(): Promise<void> {
    const db = new pg.Client({ connectionString: this.primaryUrl });
    await db.connect();
    try {
      await db.query("ALTER SYSTEM SET synchronous_standby_names = 'standby'");
      await db.query("SELECT pg_reload_conf()");
      for (let tries = 0; ; tries++) {
        const { rows } = await db.query<{ sync_state: string }>("SELECT sync_state FROM pg_stat_replication");
        if (rows.some((row) => row.sync_state === "sync")) return;
        if (tries > 100) throw new Error(`the standby did not become synchronous: ${JSON.stringify(rows)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await db.end();
    }
  }

  /**
   * The processes of one server: its postmaster and every process it forked (a backend per
   * connection, its WAL sender or receiver), to count the CPU each server spends.
   */
  serverPids(server: "primary" | "standby"): number[] {
    const pidFile = join(this.dir, server, "postmaster.pid");
    if (!existsSync(pidFile)) return [];
    const postmaster = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
    const children = readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .filter((pid) => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
          return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmaster;
        } catch {
          return false;
        }
      })
      .map(Number);
    return [postmaster, ...children];
  }

  /** Stops the primary at once, as if its machine died. */
  async killPrimary(): Promise<void> {
    await this.script("stop", join(this.dir, "primary"), "immediate");
  }

  /** Promotes the standby, as an operator (or their tooling) does once the primary is lost. */
  async promoteStandby(): Promise<void> {
    await this.script("promote", join(this.dir, "standby"));
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
