import { createConnection, createServer, type Server, type Socket } from "node:net";

const IDEMPOTENCY_KEY = /^idempotency-key:[ \t]*(\S+)[ \t]*$/i;

/**
 * A TCP proxy between an SDK and the gateway that loses replies: the first request carrying a given
 * `Idempotency-Key` reaches the gateway whole and is applied there, but its reply is dropped and the
 * connection closed, as when a network fails after the server committed. A later request with the
 * same key goes through untouched; a request with a new key loses its reply again. So a client that
 * retries with the key it first sent gets its answer on the second attempt, and one that made up a
 * new key for the retry never does. Requests without the header (reads) pass.
 */
export class LossyProxy {
  /** How many requests carried each Idempotency-Key. */
  readonly seen = new Map<string, number>();
  /** The keys whose first reply was dropped, in order. */
  readonly lost: string[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  /** A proxy in front of `targetUrl` (an `http://host:port` base URL). */
  static async start(targetUrl: string): Promise<LossyProxy> {
    const target = new URL(targetUrl);
    const upstream = { host: target.hostname, port: Number(target.port || 80) };
    let proxy: LossyProxy | undefined;
    const server = createServer((client) => proxy?.relay(client, upstream));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    proxy = new LossyProxy(server, `http://127.0.0.1:${port}`);
    return proxy;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: Socket, upstreamAddress: { host: string; port: number }): void {
    const upstream = createConnection(upstreamAddress);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    }
    // Requests on one connection follow each other (no pipelining), so the next bytes the gateway
    // sends after a marked request are that request's reply.
    let dropNextReply = false;
    let partialLine = "";
    client.on("data", (chunk: Buffer) => {
      // Header lines end with CRLF; a line cut between two chunks is completed by the next one.
      const lines = (partialLine + chunk.toString("latin1")).split("\r\n");
      partialLine = lines.pop() ?? "";
      for (const line of lines) {
        const key = IDEMPOTENCY_KEY.exec(line)?.[1];
        if (key === undefined) continue;
        const count = (this.seen.get(key) ?? 0) + 1;
        this.seen.set(key, count);
        if (count === 1) {
          this.lost.push(key);
          dropNextReply = true;
        }
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (!dropNextReply) {
        client.write(chunk);
        return;
      }
      client.destroy();
      upstream.destroy();
    });
    client.on("end", () => upstream.end());
    upstream.on("end", () => client.end());
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  }
}
