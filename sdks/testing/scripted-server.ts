import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** What the scripted server does with one request. */
export type Step =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { hang: true }
  | { delayMs: number; status: number; body?: unknown }
  | { dropConnection: true };

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}

/**
 * A deliberately failing or slow HTTP server for the retry, timeout and abort tests: it answers the
 * requests it receives with the given steps in order (the last step repeats), and records each request.
 */
export interface ScriptedServer {
  baseUrl: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startScriptedServer(steps: Step[]): Promise<ScriptedServer> {
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      });
      const step = steps[Math.min(requests.length - 1, steps.length - 1)];
      if (step) play(step, request, response);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

function play(step: Step, request: IncomingMessage, response: ServerResponse): void {
  if ("hang" in step) return;
  if ("dropConnection" in step) {
    request.socket.destroy();
    return;
  }
  const send = () => {
    const headers: Record<string, string> = {
      "x-request-id": "req_scripted",
      ...("headers" in step ? step.headers : {}),
    };
    if (step.body === undefined) {
      response.writeHead(step.status, headers).end();
      return;
    }
    const text = typeof step.body === "string" ? step.body : JSON.stringify(step.body);
    if (typeof step.body !== "string") headers["content-type"] = "application/json";
    response.writeHead(step.status, headers).end(text);
  };
  if ("delayMs" in step) setTimeout(send, step.delayMs);
  else send();
}
