import type { IncomingHttpHeaders } from "node:http";
import { Readable } from "node:stream";
import type { TlsOptions, Transport } from "./transport-types";

/** The fetch of the Bun runtime, which speaks to proxies itself and takes TLS options per request. */
type BunFetch = (
  url: string,
  init: RequestInit & { proxy: string; tls: TlsOptions; decompress: boolean },
) => Promise<Response>;

/**
 * Requests through a proxy in the single executable, which runs on Bun (docs/decisions/0029): Bun's
 * fetch forwards plain HTTP through the proxy and tunnels HTTPS with CONNECT, with the trust roots
 * applying to the proxy and to the origin, as undici's proxy agent does on Node (which Bun's undici
 * does not carry). The answer comes back in the transport's shape, its body a stream.
 */
export function bunProxyTransport(proxyUrl: URL, shown: string, tls: TlsOptions): Transport {
  const request = fetch as unknown as BunFetch;
  return {
    async exchange(url, { method, headers, body, signal }) {
      const answer = await request(url, {
        method,
        // As with Node's client: no compressed answers asked for, and none decoded behind the CLI's back.
        headers: { "accept-encoding": "identity", ...headers },
        body:
          body === null
            ? null
            : typeof body === "string"
              ? body
              : (Readable.toWeb(body) as NonNullable<RequestInit["body"]>),
        signal,
        redirect: "manual",
        proxy: proxyUrl.toString(),
        tls,
        decompress: false,
      });
      const head: IncomingHttpHeaders = {};
      answer.headers.forEach((value, name) => {
        head[name] = value;
      });
      return {
        statusCode: answer.status,
        statusText: answer.statusText,
        headers: head,
        body: answer.body ? Readable.fromWeb(answer.body as never) : Readable.from([]),
      };
    },
    proxy: shown,
    close: async () => undefined,
  };
}
