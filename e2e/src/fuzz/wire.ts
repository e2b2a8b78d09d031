import { type Agent, type IncomingHttpHeaders, request } from "node:http";
import type { WireRequest } from "./cases";

export interface WireResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * Sends a request with Node's own client, which writes header values and bodies as they are given
 * (fetch would refuse or repair some of what the suite means to send).
 */
export function send(
  baseUrl: string,
  wire: WireRequest,
  agent: Agent,
  timeoutMs = 30_000,
): Promise<WireResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: hostname,
        port,
        method: wire.method,
        path: wire.url,
        agent,
        headers: { ...wire.headers, ...(wire.body ? { "Content-Length": String(wire.body.length) } : {}) },
      },
      (response) => {
        // A dataset's live changes never end: a stream's status and headers are its whole answer.
        if (
          response.statusCode === 200 &&
          response.headers["content-type"]?.startsWith("text/event-stream")
        ) {
          response.destroy();
          resolve({ status: 200, headers: response.headers, text: "" });
          return;
        }
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    outgoing.on("error", reject);
    outgoing.end(wire.body);
  });
}
