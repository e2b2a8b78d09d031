import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/**
 * The web application's built files (`web/dist`). The gateway's `dist/main.js` and `src/app.ts`, and
 * the embedded process's, sit at the same depth below the repository, so one relative path serves all.
 */
export const defaultWebRoot = (): string => fileURLToPath(new URL("../../../web/dist", import.meta.url));

/** Paths the API and its protocols own; everything else is the web application's to route. */
const API_PREFIXES = ["/v1/", "/oauth/", "/.well-known/"];
const API_PATHS = new Set(["/v1", "/oauth", "/healthz", "/readyz"]);

/**
 * Strict: the application loads nothing from elsewhere and runs no inline script, so an injected
 * `<script>` or a stray `style` attribute does nothing; no site may frame it (clickjacking).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
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
 * `index.html`, never cached, for `/` and every other path that is not the API's, so that a deep link
 * such as `/projects/p/datasets/d?row=r1` works on reload.
 */
export function registerWebApp(app: FastifyInstance, root: string): WebApp {
  const indexFile = join(root, "index.html");
  const built = existsSync(indexFile);
  if (built) {
    void app.register(fastifyStatic, {
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
  // Read once: the page is small, and the build that wrote it is the one this process serves.
  const page = built ? readFileSync(indexFile) : notBuiltPage();
  return {
    sendPage(request, reply) {
      const path = request.url.split("?")[0] ?? "/";
      if ((request.method !== "GET" && request.method !== "HEAD") || isApiPath(path)) return false;
      void reply
        .status(built ? 200 : 503)
        .headers(SECURITY_HEADERS)
        .header("cache-control", "no-cache")
        .type("text/html; charset=utf-8")
        .send(page);
      return true;
    },
  };
}

function notBuiltPage(): Buffer {
  return Buffer.from(
    "<!doctype html><html lang=en><meta charset=utf-8><title>svc</title><p>The web application has not been built: run <code>npm run build</code>, then reload. The API is at <a href=/v1/openapi.json>/v1</a>.</p>\n",
  );
}
