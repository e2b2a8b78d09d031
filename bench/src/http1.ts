import { connect, type Socket } from "node:net";

/** How one request came out: its status and body, or status 0 when its connection failed first. */
export interface Http1Answer {
  status: number;
  /** As received, one character per byte: `Buffer.from(body, "latin1")` gives its bytes back. */
  body: string;
}

interface Job {
  payload: string;
  /**
   * Called when the request leaves the pool's hands: as it is written on an open connection, or as a
   * new connection is begun for it (`fresh`), whose set-up is then part of its wait for an answer.
   */
  onSent(fresh: boolean): void;
  resolve(answer: Http1Answer): void;
}

interface Connection {
  socket: Socket;
  /** Bytes received and not yet parsed, one character per byte. */
  buffer: string;
  job: Job | undefined;
}

/**
 * Keep-alive HTTP/1.1 connections to one server, up to `max` of them, each carrying one request at a
 * time; a request that finds none free waits for one. A load generator's client, so it does the least
 * it can per request: about a quarter of the CPU time of node:http's (measured on this machine at
 * 19 µs against 72 µs a request), which matters when the generator shares two cores with the
 * platform it loads. It reads the answers a Node server gives (Content-Length or chunked) and no more.
 */
export class ConnectionPool {
  private readonly idle: Connection[] = [];
  private readonly waiting: Job[] = [];
  private waitingFrom = 0;
  private open = 0;
  private destroyed = false;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly max: number,
  ) {}

  /** Sends one request; `head` is its request line and headers, without the blank line or Content-Length. */
  send(head: string, body: string | undefined, onSent: (fresh: boolean) => void): Promise<Http1Answer> {
    const payload =
      body === undefined ? `${head}\r\n` : `${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    return new Promise((resolve) => {
      const job: Job = { payload, onSent, resolve };
      const connection = this.idle.pop();
      if (connection) this.start(connection, job);
      else if (this.open < this.max) this.connect(job);
      else this.waiting.push(job);
    });
  }

  /**
   * Opens connections until `count` are open (at most `max`), a hundred at a time, and keeps them
   * idle: so that a load starts on established connections instead of a burst of new ones.
   */
  async preconnect(count: number): Promise<void> {
    while (this.open < Math.min(count, this.max)) {
      const batch = Math.min(100, Math.min(count, this.max) - this.open);
      await Promise.all(Array.from({ length: batch }, () => this.connect(undefined)));
    }
  }

  destroy(): void {
    this.destroyed = true;
    for (const connection of this.idle.splice(0)) connection.socket.destroy();
  }

  /** Opens a connection for `first`, or to keep idle; settles once it is connected or has failed. */
  private connect(first: Job | undefined): Promise<void> {
    this.open++;
    first?.onSent(true);
    const socket = connect(this.port, this.host);
    socket.setNoDelay(true);
    // Latin-1 keeps one character per byte, so that Content-Length can be counted on the string.
    socket.setEncoding("latin1");
    // The request it is opened for is its own from the start: it fails with it if it cannot connect.
    const connection: Connection = { socket, buffer: "", job: first };
    const settled = new Promise<void>((resolve) => {
      socket.once("connect", () => {
        resolve();
        if (first) return this.write(connection, first);
        const next = this.nextWaiting();
        if (next) this.start(connection, next);
        else this.idle.push(connection);
      });
      socket.once("close", () => resolve());
    });
    socket.on("data", (data: string) => {
      connection.buffer += data;
      this.read(connection);
    });
    socket.on("error", () => socket.destroy());
    socket.once("close", () => {
      this.open--;
      const at = this.idle.indexOf(connection);
      if (at >= 0) this.idle.splice(at, 1);
      connection.job?.resolve({ status: 0, body: "" });
      connection.job = undefined;
      const next = this.nextWaiting();
      if (next && !this.destroyed) void this.connect(next);
    });
    return settled;
  }

  private start(connection: Connection, job: Job): void {
    job.onSent(false);
    this.write(connection, job);
  }

  private write(connection: Connection, job: Job): void {
    connection.job = job;
    connection.socket.write(job.payload);
  }

  private nextWaiting(): Job | undefined {
    if (this.waitingFrom >= this.waiting.length) return undefined;
    const job = this.waiting[this.waitingFrom++];
    if (this.waitingFrom > 1024 && this.waitingFrom * 2 > this.waiting.length) {
      this.waiting.splice(0, this.waitingFrom);
      this.waitingFrom = 0;
    }
    return job;
  }

  /** Takes every complete answer off the connection's buffer. */
  private read(connection: Connection): void {
    for (;;) {
      const answer = parseAnswer(connection.buffer);
      if (!answer) return;
      connection.buffer = connection.buffer.slice(answer.length);
      const job = connection.job;
      connection.job = undefined;
      job?.resolve({ status: answer.status, body: answer.body });
      if (answer.close) {
        connection.socket.destroy();
        return;
      }
      const next = this.nextWaiting();
      if (next) this.start(connection, next);
      else this.idle.push(connection);
    }
  }
}

/** The first complete answer in `buffer`: its status, body and length, or undefined while it is incomplete. */
export function parseAnswer(
  buffer: string,
): { status: number; body: string; length: number; close: boolean } | undefined {
  const headEnd = buffer.indexOf("\r\n\r\n");
  if (headEnd < 0) return undefined;
  const head = buffer.slice(0, headEnd);
  const status = Number(head.slice(9, 12));
  const close = /\r\nconnection: *close/i.test(head);
  const start = headEnd + 4;
  if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
    let at = start;
    let body = "";
    for (;;) {
      const lineEnd = buffer.indexOf("\r\n", at);
      if (lineEnd < 0) return undefined;
      const size = Number.parseInt(buffer.slice(at, lineEnd), 16);
      if (buffer.length < lineEnd + 2 + size + 2) return undefined;
      body += buffer.slice(lineEnd + 2, lineEnd + 2 + size);
      at = lineEnd + 2 + size + 2;
      if (size === 0) return { status, body, length: at, close };
    }
  }
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
  if (buffer.length < start + length) return undefined;
  return { status, body: buffer.slice(start, start + length), length: start + length, close };
}
