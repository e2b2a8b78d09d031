import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitFor } from "./processes";

/** Debian's nats-server, as `PrivateNats` runs it (`privateNatsAvailable()` says whether it is there). */
const NATS_SERVER = process.env.NATS_SERVER_BIN ?? "/usr/sbin/nats-server";

/** What a node's monitoring endpoint says of JetStream's cluster (`/jsz`). */
interface Jsz {
  meta_cluster?: { leader?: string; replicas?: { name: string; current: boolean; offline?: boolean }[] };
}

/** One server of the cluster: its ports, its own JetStream store, and its process while it runs. */
export class NatsNode {
  child: ChildProcess | undefined;
  /** Its last words (stderr), to say why it did not start. */
  readonly transcript: string[] = [];

  constructor(
    readonly name: string,
    readonly port: number,
    readonly clusterPort: number,
    readonly monitorPort: number,
    readonly storeDir: string,
  ) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async monitor<T>(path: string): Promise<T | undefined> {
    try {
      const response = await fetch(`http://127.0.0.1:${this.monitorPort}${path}`, {
        signal: AbortSignal.timeout(1_000),
      });
      return response.ok ? ((await response.json()) as T) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The names of the clients connected to this node now (`/connz`). */
  async clientNames(): Promise<string[]> {
    const connz = await this.monitor<{ connections?: { name?: string }[] }>("/connz?limit=1024");
    return (connz?.connections ?? []).map((c) => c.name ?? "");
  }
}

/**
 * Three nats-servers on loopback, routed to each other as one cluster, each with JetStream in a
 * directory of its own: a test may SIGKILL any of them and start it again on the same ports and store,
 * as a machine dies and comes back, without touching the server other tests share.
 */
export class NatsCluster {
  private constructor(readonly nodes: NatsNode[]) {}

  static async start(size = 3): Promise<NatsCluster> {
    const nodes: NatsNode[] = [];
    for (let i = 0; i < size; i++) {
      nodes.push(
        new NatsNode(
          `n${i + 1}`,
          await freePort(),
          await freePort(),
          await freePort(),
          mkdtempSync(join(tmpdir(), `svc-nats-n${i + 1}-`)),
        ),
      );
    }
    const cluster = new NatsCluster(nodes);
    try {
      await Promise.all(nodes.map((node) => cluster.restart(node)));
      await cluster.waitFormed();
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  /** Every node's client address, separated by commas, as NATS_URL takes them. */
  get natsUrl(): string {
    return this.nodes.map((node) => node.url).join(",");
  }

  /** Starts `node` again on its ports and store, and waits until it accepts clients. */
  async restart(node: NatsNode): Promise<void> {
    if (node.running) return;
    const routes = this.nodes
      .filter((other) => other !== node)
      .map((other) => `nats://127.0.0.1:${other.clusterPort}`)
      .join(",");
    const child = spawn(
      NATS_SERVER,
      [
        ...["-n", node.name, "-a", "127.0.0.1", "-p", String(node.port), "-m", String(node.monitorPort)],
        ...["-js", "-sd", node.storeDir],
        ...["--cluster_name", "svc-test", "--cluster", `nats://127.0.0.1:${node.clusterPort}`],
        ...["--routes", routes],
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    node.transcript.length = 0;
    child.stderr?.on("data", (chunk: Buffer) => {
      node.transcript.push(chunk.toString("utf8"));
      if (node.transcript.length > 200) node.transcript.shift();
    });
    node.child = child;
    await waitFor(
      `nats-server ${node.name} on port ${node.port}`,
      async () => ((await node.monitor("/varz")) ? true : undefined),
      15_000,
      () => (node.running ? undefined : `${node.name} exited: ${node.transcript.join("").slice(-2_000)}`),
    );
  }

  /**
   * Waits until every running node sees the same JetStream meta leader and every peer it knows as
   * current: the cluster can create and replicate streams.
   */
  async waitFormed(timeoutMs = 20_000): Promise<void> {
    const running = this.nodes.filter((node) => node.running);
    await waitFor(
      `a JetStream cluster of ${running.length} nodes`,
      async () => {
        const views = await Promise.all(running.map((node) => node.monitor<Jsz>("/jsz")));
        const leaders = new Set(views.map((view) => view?.meta_cluster?.leader));
        if (leaders.size !== 1 || leaders.has(undefined)) return undefined;
        const peersCurrent = views.every((view) =>
          (view?.meta_cluster?.replicas ?? []).every((peer) => {
            const node = this.nodes.find((n) => n.name === peer.name);
            return !node?.running || (peer.current && !peer.offline);
          }),
        );
        return peersCurrent ? true : undefined;
      },
      timeoutMs,
    );
  }

  /** The node the named client (its NATS connection name) is connected to now. */
  async nodeOf(clientName: string): Promise<NatsNode | undefined> {
    for (const node of this.nodes) {
      if (node.running && (await node.clientNames()).includes(clientName)) return node;
    }
    return undefined;
  }

  /** SIGKILL: no goodbye to the clients or the other nodes, as when a machine dies. */
  async kill(node: NatsNode): Promise<void> {
    const child = node.child;
    if (!child || !node.running) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  /** Kills every node by its PID and removes their stores. */
  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((node) => this.kill(node)));
    for (const node of this.nodes) rmSync(node.storeDir, { recursive: true, force: true });
  }
}
