import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/**
 * The web application's built files (`web/dist`), seen from this module's source. A process entry
 * (`dist/main.js`) passes its own, as bundling moves this module into a chunk one folder deeper.
 */
export const defaultWebRoot = (): string => fileURLToPath(new URL("../../../web/dist", import.meta.url));

/** Paths the API and its protocols own; everything else is the web application's to route. */
const API_PREFIXES = ["/v1/", "/oauth/", "/.well-known/"];
const API_PATHS = new Set(["/v1", "/oauth", "/healthz", "/readyz"]);

/** What the build leaves where each page's nonce goes (web/vite.config.ts). */
const NONCE_PLACEHOLDER = "__SVC_CSP_NONCE__";

/**
 * Strict: the application loads nothing from elsewhere and runs no inline script, so an injected
 * `<script>` or a stray `style` attribute does nothing; no site may frame it (clickjacking). A page
 * may add stylesheets carrying its own nonce, fresh for every page served (the JSON editor's).
 */
export const contentSecurityPolicy = (nonce?: string): string =>
  [
    "default-src 'self'",
    "script-src 'self'",
    nonce ? `style-src 'self' 'nonce-${nonce}'` : "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");

const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": contentSecurityPolicy(),
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
};

export const isApiPath = (path: string): boolean =>
  API_PATHS.has(path) || API_PREFIXES.some((prefix) => path.startsWith(prefix));

export interface WebApp {
  /** Answers a GET for a path of the application (a deep link) with its page; false when it is not one. */
  sendPage(request: FastifyRequest, reply: FastifyReply): boolean;
}

/**
 * Serves the web application: hashed assets for a year (their names change with their content), and
 * `index.html`, never cached, for `/` and every other path that is not the API's (`webPage`), so that
 * a deep link such as `/projects/p/datasets/d?row=r1` works on reload. The built files are one route
 * each, in an encapsulated plugin; none when the application is not built.
 */
export async function webFiles(app: FastifyInstance, { root }: { root: string }): Promise<void> {
  if (!existsSync(join(root, "index.html"))) return;
  await app.register(fastifyStatic, {
    root,
    // One route per file that exists at start: any other path falls through to the page.
    wildcard: false,
    index: false,
    serveDotFiles: false,
    setHeaders: (reply, path) => {
      const hashed = path.startsWith(join(root, "assets"));
      reply
        .headers(SECURITY_HEADERS)
        .header("cache-control", hashed ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
}

/** The application's page, for every path of the application (see `sendPage`). */
export function webPage(
  root: string,
  {
    ownerKeyFile,
    singleSignOn,
  }: { ownerKeyFile?: string | undefined; singleSignOn?: string | undefined } = {},
): WebApp {
  const indexFile = join(root, "index.html");
  const built = existsSync(indexFile);
  // Read once: the page is small, and the build that wrote it is the one this process serves.
  const page = withMeta(
    withMeta(built ? readFileSync(indexFile, "utf8") : notBuiltPage(), "svc-owner-key-file", ownerKeyFile),
    "svc-single-sign-on",
    singleSignOn,
  );
  return {
    sendPage(request, reply) {
      const path = request.url.split("?")[0] ?? "/";
      if ((request.method !== "GET" && request.method !== "HEAD") || isApiPath(path)) return false;
      const nonce = randomBytes(16).toString("base64");
      void reply
        .status(built ? 200 : 503)
        .headers(SECURITY_HEADERS)
        .header("content-security-policy", contentSecurityPolicy(nonce))
        .header("cache-control", "no-store")
        .type("text/html; charset=utf-8")
        .send(page.replaceAll(NONCE_PLACEHOLDER, nonce));
      return true;
    },
  };
}

/**
 * Tells the sign-in page a fact of this platform: `svc-owner-key-file`, the file that holds the first
 * owner key (the data folder the person chose, not the default one); `svc-single-sign-on`, the name
 * of the identity provider it offers ("Sign in with …").
 */
function withMeta(page: string, name: string, content: string | undefined): string {
  if (content === undefined || !page.includes("</head>")) return page;
  return page.replace("</head>", `<meta name="${name}" content="${escapeAttribute(content)}" />\n</head>`);
}

const escapeAttribute = (text: string): string =>
  text.replace(/[&"<>]/g, (c) => ({ "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;" })[c] ?? c);

function notBuiltPage(): string {
  return "<!doctype html><html lang=en><meta charset=utf-8><title>svc</title><p>The web application has not been built: run <code>npm run build</code>, then reload. The API is at <a href=/v1/openapi.json>/v1</a>.</p>\n";
}
