import { connect } from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /** The body, parsed when it is JSON, else its text. */
  body: unknown;
}

/**
 * Sends bytes as they are over a new connection and reads the one answer until the server closes it
 * (send `Connection: close`): for requests that no HTTP client would write (a broken Content-Length,
 * a raw byte in the path).
 */
export function rawHttp(
  baseUrl: string,
  request: string | Uint8Array,
  timeoutMs = 5_000,
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms; got ${Buffer.concat(chunks).toString("latin1")}`));
    }, timeoutMs);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => {
      // The server may reset once it has answered; what it sent is in `chunks`.
    });
    socket.on("close", () => {
      clearTimeout(timer);
      try {
        resolve(parseResponse(Buffer.concat(chunks).toString("utf8")));
      } catch (error) {
        reject(error);
      }
    });
    // Written, not ended: a client that half-closes at once makes Node drop a request still being read.
    socket.write(typeof request === "string" ? Buffer.from(request, "latin1") : request);
  });
}

function parseResponse(text: string): RawResponse {
  const split = text.indexOf("\r\n\r\n");
  if (split < 0) throw new Error(`not an HTTP response: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = "", ...lines] = text.slice(0, split).split("\r\n");
  const status = Number(statusLine.split(" ")[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body: unknown = text.slice(split + 4);
  try {
    body = JSON.parse(body as string);
  } catch {
    // not JSON: kept as text
  }
  return { status, headers, body };
}
