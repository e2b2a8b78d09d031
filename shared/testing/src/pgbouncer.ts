import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acceptsConnections, freePort, waitFor } from "./processes";
import { programsAvailable } from "./programs";

/** Debian's PgBouncer (1.18 on bookworm: no prepared statements in transaction mode). */
const PGBOUNCER = process.env.PGBOUNCER_BIN ?? "/usr/sbin/pgbouncer";

/** Whether PgBouncer is here; skips loudly, or fails with SVC_REQUIRE_INFRA=1 (see `programsAvailable`). */
export const pgbouncerAvailable = (): boolean => programsAvailable(PGBOUNCER);

/**
 * PgBouncer in transaction mode in front of one PostgreSQL server, on a free loopback port: every
 * database of the server through it, with trust authentication for the server's user. Services behind
 * it need `DB_PREPARED_STATEMENTS=off` (docs/decisions/0007).
 */
export class PgBouncer {
  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly port: number,
    readonly output: string[],
  ) {}

  static async start(serverUrl: string, { poolSize = 20 } = {}): Promise<PgBouncer> {
    const server = new URL(serverUrl);
    const user = decodeURIComponent(server.username || "postgres");
    const dir = mkdtempSync(join(tmpdir(), "svc-pgbouncer-"));
    const port = await freePort();
    const config = join(dir, "pgbouncer.ini");
    writeFileSync(join(dir, "users.txt"), `"${user}" ""\n`);
    writeFileSync(
      config,
      [
        "[databases]",
        `* = host=${server.hostname} port=${server.port || 5432}`,
        "[pgbouncer]",
        "listen_addr = 127.0.0.1",
        `listen_port = ${port}`,
        "unix_socket_dir =",
        "auth_type = trust",
        `auth_file = ${join(dir, "users.txt")}`,
        "pool_mode = transaction",
        `default_pool_size = ${poolSize}`,
        "max_client_conn = 2000",
        // What a test's scratch databases need: many of them, each with its own pool.
        "max_db_connections = 0",
        "server_lifetime = 3600",
        "",
      ].join("\n"),
    );
    // PgBouncer will not run as root: as root, it runs as postgres, which must read its files.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      chmodSync(dir, 0o755);
      const [uid, gid] = postgresIds();
      for (const file of [dir, config, join(dir, "users.txt")]) chownSync(file, uid, gid);
    }
    const child = spawn(PGBOUNCER, [...(asRoot ? ["-u", "postgres"] : []), config], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output: string[] = [];
    child.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    const bouncer = new PgBouncer(child, dir, port, output);
    try {
      await waitFor(
        `pgbouncer on port ${port}`,
        async () => {
          if (child.exitCode !== null) throw new Error(`pgbouncer exited: ${output.join("")}`);
          return acceptsConnections(port);
        },
        10_000,
      );
    } catch (error) {
      await bouncer.stop();
      throw error;
    }
    return bouncer;
  }

  /** `url` (a database of the server) through PgBouncer. */
  urlOf(url: string): string {
    const through = new URL(url);
    through.hostname = "127.0.0.1";
    through.port = String(this.port);
    return through.toString();
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The postgres user's ids, from /etc/passwd (Debian's PostgreSQL packages make it). */
function postgresIds(): [number, number] {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("postgres:"));
  const [, , uid, gid] = line?.split(":") ?? [];
  if (uid === undefined || gid === undefined) throw new Error("no postgres user to run pgbouncer as");
  return [Number(uid), Number(gid)];
}
