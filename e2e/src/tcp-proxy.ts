import { createConnection, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP proxy on loopback that a test can cut (every connection destroyed, new ones refused) and
 * restore on the same port: a database outage without touching the database server others share.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly target: { host: string; port: number },
    public port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target, 0);
    await proxy.listen();
    return proxy;
  }

  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = "127.0.0.1";
    proxied.port = String(this.port);
    return proxied.toString();
  }

  get connections(): number {
    return this.sockets.size / 2;
  }

  /** Destroys every connection and refuses new ones until `restore`. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await closed;
  }

  async restore(): Promise<void> {
    if (!this.server) await this.listen();
  }

  async close(): Promise<void> {
    await this.cut();
  }

  private async listen(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection(this.target);
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        this.sockets.add(a);
        a.on("error", () => b.destroy());
        a.on("close", () => {
          this.sockets.delete(a);
          b.destroy();
        });
        a.pipe(b);
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    const address = server.address();
    if (typeof address === "object" && address) this.port = address.port;
    this.server = server;
  }
}
