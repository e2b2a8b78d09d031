import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ConnectionPool, parseAnswer } from "./http1";

describe("parseAnswer", () => {
  it("waits for the whole body that Content-Length announces", () => {
    const answer = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 5\r\nRetry-After: 1\r\n\r\nhello";
    expect(parseAnswer(answer.slice(0, -1))).toBeUndefined();
    expect(parseAnswer(`${answer}HTTP/1.1 200`)).toEqual({
      status: 503,
      body: "hello",
      length: answer.length,
      close: false,
    });
  });

  it("joins a chunked body once its last chunk is in", () => {
    const answer =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
    expect(parseAnswer(answer.slice(0, -2))).toBeUndefined();
    expect(parseAnswer(answer)).toEqual({ status: 200, body: "abcde", length: answer.length, close: true });
  });
});

describe("ConnectionPool", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /** A server that answers each request with its method, path, body and the connection's number. */
  async function listen(answer?: (n: number) => { status: number; close?: boolean }): Promise<number> {
    let connections = 0;
    let requests = 0;
    const created = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const { status, close } = answer?.(requests++) ?? { status: 200 };
        if (close) response.setHeader("connection", "close");
        const socket = request.socket as typeof request.socket & { number?: number };
        socket.number ??= ++connections;
        response.writeHead(status, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            what: `${request.method} ${request.url} ${Buffer.concat(chunks).toString("utf8")}`,
            connection: socket.number,
            authorization: request.headers.authorization,
          }),
        );
      });
    });
    server = created;
    await new Promise<void>((resolve) => created.listen(0, "127.0.0.1", resolve));
    return (created.address() as AddressInfo).port;
  }

  const head = (port: number, method: string, path: string) =>
    `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer k\r\ncontent-type: application/json\r\n`;

  it("carries requests and bodies over at most `max` kept-alive connections, one at a time each", async () => {
    const port = await listen();
    const pool = new ConnectionPool("127.0.0.1", port, 2);
    const sent: number[] = [];
    const fresh: boolean[] = [];
    const answers = await Promise.all(
      [0, 1, 2, 3, 4].map((n) =>
        pool.send(head(port, "PATCH", `/rows/r${n}`), JSON.stringify({ value: `é${n}` }), (isFresh) => {
          sent.push(n);
          fresh.push(isFresh);
        }),
      ),
    );
    pool.destroy();
    const bodies = answers.map((answer) => JSON.parse(Buffer.from(answer.body, "latin1").toString("utf8")));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(bodies.map((body) => body.what)).toEqual(
      [0, 1, 2, 3, 4].map((n) => `PATCH /rows/r${n} {"value":"é${n}"}`),
    );
    expect(new Set(bodies.map((body) => body.connection))).toEqual(new Set([1, 2]));
    expect(bodies.every((body) => body.authorization === "Bearer k")).toBe(true);
    expect(sent.sort()).toEqual([0, 1, 2, 3, 4]);
    // The first two opened a connection each; the others waited for one of those.
    expect(fresh).toEqual([true, true, false, false, false]);
  });

  it("opens connections ahead of the load when asked to, and sends on them", async () => {
    const port = await listen();
    const pool = new ConnectionPool("127.0.0.1", port, 3);
    await pool.preconnect(5);
    const fresh: boolean[] = [];
    const answers = await Promise.all(
      [0, 1, 2, 3].map((n) =>
        pool.send(head(port, "GET", `/${n}`), undefined, (isFresh) => fresh.push(isFresh)),
      ),
    );
    pool.destroy();
    expect(fresh).toEqual([false, false, false, false]);
    expect(new Set(answers.map((answer) => JSON.parse(answer.body).connection))).toEqual(new Set([1, 2, 3]));
  });

  it("opens a new connection after the server closes one, and answers status 0 when none can be made", async () => {
    const port = await listen((n) => ({ status: n === 0 ? 503 : 200, close: n === 0 }));
    const pool = new ConnectionPool("127.0.0.1", port, 1);
    const first = await pool.send(head(port, "GET", "/a"), undefined, () => {});
    const second = await pool.send(head(port, "GET", "/b"), undefined, () => {});
    expect([first.status, second.status]).toEqual([503, 200]);
    expect(JSON.parse(second.body).connection).toBe(2);
    pool.destroy();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = undefined;
    const refused = new ConnectionPool("127.0.0.1", port, 1);
    const fresh: boolean[] = [];
    const answer = await refused.send(head(port, "GET", "/c"), undefined, (isFresh) => fresh.push(isFresh));
    expect(answer).toEqual({ status: 0, body: "" });
    expect(fresh).toEqual([true]);
  });
});
