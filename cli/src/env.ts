import { usageError } from "./errors";

/** Everything the CLI reads from its environment, read once and checked. */
export interface Settings {
  baseUrl: string;
  timeoutMs: number;
  output: string | undefined;
  projectSlug: string | undefined;
  proxy: string | undefined;
  caBundle: string | undefined;
  sslCertFile: string | undefined;
  insecure: boolean;
  noColor: boolean;
}

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  return {
    baseUrl: baseUrl(env.SVC_BASE_URL),
    timeoutMs: timeout(env.SVC_TIMEOUT_SECS),
    output: nonEmpty(env.SVC_OUTPUT),
    projectSlug: nonEmpty(env.SVC_PROJECT_SLUG),
    proxy: nonEmpty(env.SVC_PROXY),
    caBundle: nonEmpty(env.SVC_CA_BUNDLE),
    sslCertFile: nonEmpty(env.SSL_CERT_FILE),
    insecure: ["1", "true", "yes"].includes((env.SVC_INSECURE ?? "").toLowerCase()),
    noColor: env.NO_COLOR !== undefined && env.NO_COLOR !== "",
  };
}

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === "" ? undefined : value.trim();

function baseUrl(raw: string | undefined): string {
  const value = nonEmpty(raw) ?? DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError(`SVC_BASE_URL is not a URL: "${value}"`, "use for example http://127.0.0.1:8080");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw usageError(`SVC_BASE_URL must be http:// or https://, not "${value}"`);
  }
  return value.replace(/\/+$/, "");
}

function timeout(raw: string | undefined): number {
  const value = nonEmpty(raw);
  if (value === undefined) return 60_000;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw usageError(`SVC_TIMEOUT_SECS must be a positive number of seconds, not "${value}"`);
  }
  return Math.round(seconds * 1000);
}
