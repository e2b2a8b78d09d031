import { readFileSync } from "node:fs";
import type { buildConnector } from "undici";
import type { Settings } from "../env";
import { usageError } from "../errors";
import type { TlsOptions, Transport } from "./transport-types";

export type { Incoming, Outgoing, TlsOptions, Transport } from "./transport-types";

export const INSECURE_WARNING = "svc: warning: SVC_INSECURE is set: TLS certificates are not verified\n";

/**
 * The transport of one invocation: direct, with Node's own HTTP client (loaded with Node, so a
 * request costs no more start-up than the command), or through a proxy (SVC_PROXY, else HTTPS_PROXY /
 * HTTP_PROXY by scheme, unless NO_PROXY matches) with undici's proxy agent, loaded only then (in the
 * single executable, which runs on Bun, with Bun's fetch: transport-bun.ts). The
 * trust roots of SVC_CA_BUNDLE / SSL_CERT_FILE apply to the origin and to an HTTPS proxy alike.
 * Every command that sends a request gets its transport here, so SVC_INSECURE is announced on
 * standard error (`warn`) every time it applies.
 */
export async function createTransport(
  settings: Settings,
  target: URL,
  env: NodeJS.ProcessEnv,
  warn: (text: string) => void,
): Promise<Transport> {
  if (settings.insecure) warn(INSECURE_WARNING);
  const tls = tlsOptions(settings);
  const proxy = proxyFor(target, settings, env);
  if (!proxy) return directTransport(tls);
  const proxyUrl = parseProxy(proxy);
  if (process.versions.bun !== undefined) {
    const { bunProxyTransport } = await import("./transport-bun");
    return bunProxyTransport(proxyUrl, redacted(proxyUrl), tls);
  }
  const undici = await import("undici");
  const connectToProxy = withoutIpServerName(undici.buildConnector(tls));
  const dispatcher = new undici.ProxyAgent({
    uri: proxyUrl.toString(),
    requestTls: tls,
    proxyTls: tls,
    // The connection to the proxy itself, as undici makes it from proxyTls but for the server name.
    clientFactory: (origin) => new undici.Pool(origin, { connect: connectToProxy }),
    // Plain HTTP through an HTTP proxy is forwarded, as curl does; HTTPS is tunnelled with CONNECT.
    proxyTunnel: target.protocol === "https:" || proxyUrl.protocol === "https:",
  });
  return {
    async exchange(url, { method, headers, body, signal }) {
      const answer = await undici.request(url, {
        method: method as "GET",
        headers,
        body,
        dispatcher,
        signal,
      });
      return { statusCode: answer.statusCode, statusText: "", headers: answer.headers, body: answer.body };
    },
    proxy: redacted(proxyUrl),
    close: () => dispatcher.destroy().catch(() => undefined),
  };
}

/** Requests straight to the origin with node:http / node:https. */
export function directTransport(tls: TlsOptions): Transport {
  return {
    exchange: (url, { method, headers, body, signal }) =>
      new Promise((resolve, reject) => {
        const target = new URL(url);
        const secure = target.protocol === "https:";
        const { request } = (
          secure ? require("node:https") : require("node:http")
        ) as typeof import("node:https");
        const head = { ...headers };
        if (typeof body === "string") head["content-length"] = String(Buffer.byteLength(body));
        const outgoing = request(
          target,
          { method, headers: head, signal, ...(secure ? tls : {}) },
          (answer) =>
            resolve({
              statusCode: answer.statusCode ?? 0,
              statusText: answer.statusMessage ?? "",
              headers: answer.headers,
              body: answer,
            }),
        );
        outgoing.on("error", reject);
        if (body === null) outgoing.end();
        else if (typeof body === "string") outgoing.end(body);
        else {
          body.on("error", (error) => outgoing.destroy(error));
          body.pipe(outgoing);
        }
      }),
    proxy: undefined,
    close: async () => undefined,
  };
}

/**
 * undici names an HTTPS proxy by its host in TLS's server name indication, an IP address too, which
 * RFC 6066 forbids: Node 20 warns (DEP0123), Node 26 refuses to connect. Without a server name, TLS
 * checks such an address against the IP addresses of the proxy's certificate, as it does for an origin
 * given by IP address.
 */
export function withoutIpServerName(connect: buildConnector.connector): buildConnector.connector {
  // node:net is loaded here, as with undici, only when a proxy is in use.
  const { isIP } = require("node:net") as typeof import("node:net");
  const isAddress = (name: string) => isIP(name.replace(/^\[|\]$/g, "")) !== 0;
  return ({ servername, ...endpoint }, callback) =>
    connect(servername && !isAddress(servername) ? { ...endpoint, servername } : endpoint, callback);
}

/**
 * The proxy's address; a bare `host:port` is an HTTP proxy, as curl reads it. Only HTTP and HTTPS
 * proxies are spoken to: undici's SOCKS support is experimental and, given our TLS settings, speaks
 * TLS to the SOCKS proxy itself, so a SOCKS address is refused here instead of failing later as a
 * network error.
 */
function parseProxy(raw: string): URL {
  const hint = "use an HTTP or HTTPS proxy, for example http://proxy.local:3128 or https://proxy.local:3129";
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`);
  } catch {
    throw usageError(`the proxy address is not a URL: "${raw}"`, hint);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw usageError(`cannot speak to a proxy of the scheme "${url.protocol}" (${redacted(url)})`, hint);
  }
  return url;
}

/** A URL without its user name and password, to be shown. */
function redacted(url: URL): string {
  const shown = new URL(url);
  shown.username = "";
  shown.password = "";
  return shown.toString();
}

export function tlsOptions(settings: Settings): TlsOptions {
  const options: TlsOptions = {};
  if (settings.insecure) options.rejectUnauthorized = false;
  if (settings.sslCertFile === undefined && settings.caBundle === undefined) return options;
  const roots =
    settings.sslCertFile !== undefined
      ? [readPem(settings.sslCertFile, "SSL_CERT_FILE")]
      : // node:tls (and with it node:crypto) is loaded only here, or by an https request.
        [...(require("node:tls") as typeof import("node:tls")).rootCertificates];
  if (settings.caBundle !== undefined) roots.push(readPem(settings.caBundle, "SVC_CA_BUNDLE"));
  options.ca = roots;
  return options;
}

function readPem(path: string, variable: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw usageError(
      `${variable} names a file that cannot be read: ${path} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  if (!text.includes("-----BEGIN CERTIFICATE-----")) {
    throw usageError(`${variable} must name a PEM file of certificates: ${path}`);
  }
  return text;
}

/** The proxy for `target`, or undefined when it is reached directly. */
export function proxyFor(target: URL, settings: Settings, env: NodeJS.ProcessEnv): string | undefined {
  const pick = (...names: string[]) =>
    names.map((name) => env[name]?.trim()).find((value) => value !== undefined && value !== "");
  const proxy =
    settings.proxy ??
    (target.protocol === "https:"
      ? pick("https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY")
      : pick("http_proxy", "HTTP_PROXY"));
  if (!proxy) return undefined;
  return bypassesProxy(target, pick("no_proxy", "NO_PROXY") ?? "") ? undefined : proxy;
}

/** NO_PROXY: `*`, host names (a leading dot or not: the domain and its subdomains), IPs, optional ports. */
export function bypassesProxy(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = target.port || (target.protocol === "https:" ? "443" : "80");
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === "*") return true;
    const match = /^(.*?)(?::(\d+))?$/.exec(entry.replace(/^\[|\](?=:|$)/g, ""));
    const name = (match?.[1] ?? entry).replace(/^\*?\./, "");
    const entryPort = match?.[2];
    if (entryPort && entryPort !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}
