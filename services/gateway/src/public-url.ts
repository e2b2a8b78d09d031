import type { FastifyRequest } from "fastify";

export interface PublicUrlOptions {
  SVC_PUBLIC_URL?: string | undefined;
  SVC_TRUST_PROXY: boolean;
}

/** `host`, `host:port`, `1.2.3.4:80` or `[::1]:80`: nothing that could smuggle a path or a scheme. */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The address clients reach the gateway at, for OAuth metadata and the consent form: SVC_PUBLIC_URL
 * when set; else the request's own protocol and Host, or, with SVC_TRUST_PROXY, those the proxy in
 * front says the client used (`X-Forwarded-Proto`, `X-Forwarded-Host`), so that a gateway behind TLS
 * termination announces `https://`.
 */
export function publicUrlOf(options: PublicUrlOptions): (request: FastifyRequest) => string {
  const configured = options.SVC_PUBLIC_URL;
  if (configured) return () => configured;
  if (!options.SVC_TRUST_PROXY) return (request) => `${request.protocol}://${request.host}`;
  return (request) => {
    const proto = forwarded(request, "x-forwarded-proto")?.toLowerCase();
    const host = forwarded(request, "x-forwarded-host");
    const protocol = proto === "http" || proto === "https" ? proto : request.protocol;
    return `${protocol}://${host !== undefined && HOST.test(host) ? host : request.host}`;
  };
}

/**
 * The first value of a forwarding header: what the proxy facing the client saw (a chain of proxies
 * appends, so later values describe hops between proxies). Undefined when absent or empty.
 */
function forwarded(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers[name];
  const value = (Array.isArray(header) ? header[0] : header)?.split(",")[0]?.trim();
  return value ? value : undefined;
}
