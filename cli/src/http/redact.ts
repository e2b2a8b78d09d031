/* Credentials kept out of what the CLI prints: URLs, headers and bodies in the debug log. */

const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"]);
const SECRET_QUERY = /key|token|secret|password|auth|signature/i;

/** A URL with the values of credential-like query parameters replaced. */
export function redactUrl(raw: string): string {
  const url = new URL(raw);
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_QUERY.test(name)) url.searchParams.set(name, "REDACTED");
  }
  if (url.password) url.password = "REDACTED";
  return url.toString();
}

export function redactHeader(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (!SECRET_HEADERS.has(lower) && !/api-?key|token|secret/.test(lower)) return value;
  const scheme = /^(Bearer|Basic|Token)\s/i.exec(value)?.[1];
  return scheme ? `${scheme} REDACTED` : "REDACTED";
}

/**
 * Field names whose values are credentials, compared without case, `_` or `-`: `token`, `apiKey`,
 * `access_token`, `refresh_token`, `client_secret`, `password`, `privateKey`, and any name ending in
 * one of those (`idToken`, `sessionToken`, `webhookSecret`). `maskedToken` is already masked.
 */
const SECRET_FIELD = /(token|secret|password|passwd|apikey|privatekey|authorization|credentials?)$/;
const NOT_SECRET = new Set(["maskedtoken"]);

export function isSecretField(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[-_]/g, "");
  return SECRET_FIELD.test(normalized) && !NOT_SECRET.has(normalized);
}

function redactValue(value: unknown, found: { any: boolean }): unknown {
  if (Array.isArray(value)) return value.map((item) => redactValue(item, found));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    if (isSecretField(name) && inner !== null && typeof inner !== "object") {
      out[name] = "REDACTED";
      found.any = true;
    } else out[name] = redactValue(inner, found);
  }
  return out;
}

const FORM = /^[\w.%-]+=[^&\s]*(&[\w.%-]+=[^&\s]*)*$/;

/**
 * A body for the debug log with the values of credential fields replaced: JSON at any depth (shown
 * as sent when nothing had to be hidden), a form body, and, for text that is neither, any
 * `"name": "value"` pair of such a field.
 */
export function redactBody(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (parsed !== undefined) {
    const found = { any: false };
    const redacted = redactValue(parsed, found);
    return found.any ? JSON.stringify(redacted) : text;
  }
  if (FORM.test(text)) {
    return text
      .split("&")
      .map((pair) => {
        const [name = "", value] = pair.split("=");
        return isSecretField(safeDecode(name)) && value ? `${name}=REDACTED` : pair;
      })
      .join("&");
  }
  return text.replace(/"([^"\\]{1,64})"(\s*:\s*)"(?:[^"\\]|\\.)*"/g, (pair, name: string, colon: string) =>
    isSecretField(name) ? `"${name}"${colon}"REDACTED"` : pair,
  );
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}
