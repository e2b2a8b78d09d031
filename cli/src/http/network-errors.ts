import { CliError, exitCodes } from "../errors";
import type { PreparedRequest } from "./request";

/* What went wrong on the way to the platform, told so that a person can act on it. */

export const timeoutError = (request: PreparedRequest, timeoutMs: number): CliError =>
  new CliError(`no answer from ${new URL(request.url).origin} within ${timeoutMs / 1000} s`, {
    exit: exitCodes.network,
    code: "timeout",
    hint: "raise SVC_TIMEOUT_SECS, or check that the platform is answering",
  });

const TLS_CODES = new Set([
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
]);

/** Classifies an error of the transport: what to tell the person, and whether trying again may help. */
export function networkError(
  error: unknown,
  request: PreparedRequest,
  options: { timeoutMs: number; transport: { proxy: string | undefined } },
): { error: CliError; retryable: boolean } {
  const origin = new URL(request.url).origin;
  const chain = causes(error);
  const codes = chain.map((inner) => (inner as { code?: string }).code).filter(Boolean) as string[];
  const names = chain.map((inner) => (inner as { name?: string }).name);
  const messages = chain.map((inner) => (inner as { message?: string }).message ?? "");
  const network = (message: string, code: string, hint: string, retryable = false) => ({
    error: new CliError(message, { exit: exitCodes.network, code, hint }),
    retryable,
  });
  if (names.includes("TimeoutError") || codes.includes("UND_ERR_ABORTED") || names.includes("AbortError")) {
    return { error: timeoutError(request, options.timeoutMs), retryable: false };
  }
  const tlsCode = codes.find((code) => TLS_CODES.has(code) || code.startsWith("ERR_SSL"));
  if (tlsCode) {
    return network(
      `TLS verification of ${origin} failed (${tlsCode})`,
      "tls_error",
      "set SVC_CA_BUNDLE (or SSL_CERT_FILE) to the PEM file of the CA that signed its certificate; SVC_INSECURE=1 skips verification",
    );
  }
  const proxyStatus = messages.map((message) => /Proxy response \((\d+)\)/.exec(message)?.[1]).find(Boolean);
  if (proxyStatus) {
    return network(
      `the proxy ${options.transport.proxy ?? ""} refused to connect to ${origin} (HTTP ${proxyStatus})`,
      "proxy_error",
      "check SVC_PROXY / HTTPS_PROXY / HTTP_PROXY, or add the host to NO_PROXY",
    );
  }
  const via = options.transport.proxy ? ` through the proxy ${options.transport.proxy}` : "";
  const fix = options.transport.proxy
    ? "check that the proxy is running (SVC_PROXY / HTTPS_PROXY / HTTP_PROXY) or bypass it with NO_PROXY"
    : "check that the platform is running and that SVC_BASE_URL is right (`npm start` serves http://127.0.0.1:8080)";
  if (codes.includes("ENOTFOUND") || codes.includes("EAI_AGAIN")) {
    return network(`cannot resolve the host of ${origin}${via}`, "connection_failed", fix, true);
  }
  if (codes.includes("ECONNREFUSED")) {
    return network(`cannot connect to ${origin}${via}: connection refused`, "connection_failed", fix, true);
  }
  const code = codes[0] ?? names[0] ?? "error";
  return network(
    `cannot reach ${origin}${via} (${code}: ${messages[0] ?? ""})`,
    "connection_failed",
    fix,
    true,
  );
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current && chain.length < 8) {
    chain.push(current);
    if (current instanceof AggregateError) chain.push(...current.errors);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}
