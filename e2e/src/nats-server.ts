import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { programsAvailable } from "@svc/testing/programs";
import { acceptsConnections, freePort, waitFor } from "./platform";

/** Debian's nats-server; `privateNatsAvailable()` says whether it is there. */
const NATS_SERVER = process.env.NATS_SERVER_BIN ?? "/usr/sbin/nats-server";

export const privateNatsAvailable = (): boolean => programsAvailable(NATS_SERVER);

/**
 * A NATS server of the test's own, on loopback, with JetStream in a temporary directory: a test may
 * kill and restart it without disturbing the server that other tests share. Without JetStream, it is
 * a server on which the gateways' shared rate-limit store is down while the bus works.
 */
export class PrivateNats {
  private child: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    private readonly storeDir: string,
    private readonly jetstream: boolean,
  ) {}

  /** A server with its port and store chosen, not started yet: `restart` starts it. */
  static async create({ jetstream = true } = {}): Promise<PrivateNats> {
    return new PrivateNats(await freePort(), mkdtempSync(join(tmpdir(), "svc-nats-")), jetstream);
  }

  static async start(options: { jetstream?: boolean } = {}): Promise<PrivateNats> {
    const nats = await PrivateNats.create(options);
    await nats.restart();
    return nats;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** Starts the server again on the same port and store, and waits until it accepts connections. */
  async restart(): Promise<void> {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) return;
    const jetstream = this.jetstream ? ["-js", "-sd", this.storeDir] : [];
    const child = spawn(NATS_SERVER, ["-a", "127.0.0.1", "-p", String(this.port), ...jetstream], {
      stdio: "ignore",
    });
    this.child = child;
    await waitFor(`nats-server on port ${this.port}`, () => acceptsConnections(this.port), 10_000);
  }

  /** SIGKILL: no goodbye to the clients, as when a machine dies. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}
