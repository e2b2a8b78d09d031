import { createServer, type Server } from "node:http";
import type { Logger } from "pino";
import { z } from "zod";

/**
 * A service without an HTTP API still answers probes: with SVC_HEALTH_PORT set it serves `/healthz`
 * (the process is alive and its event loop turns) and `/readyz` (its dependencies answer and it is not
 * draining) on that port, and nothing else.
 */
export const healthEnvSchema = z.object({
  SVC_HEALTH_PORT: z.coerce
    .number()
    .int()
    .min(1)
    .max(65535)
    .optional()
    .describe("Port of /healthz and /readyz for probes; no probe server when unset"),
  SVC_HEALTH_HOST: z
    .string()
    .default("127.0.0.1")
    .describe("0.0.0.0 in a container, so the kubelet reaches it"),
});
export type HealthEnv = z.output<typeof healthEnvSchema>;

export interface HealthProbe {
  /** From now on `/readyz` answers 200 while `check` resolves true within a second. Before: 503 starting. */
  ready(check: () => Promise<boolean>): void;
  /** `/readyz` answers 503 draining from now on. */
  draining(): void;
  close(): Promise<void>;
}

type State = "starting" | "ready" | "draining";

const CHECK_TIMEOUT_MS = 1_000;

export async function startHealthServer(env: HealthEnv, logger: Logger): Promise<HealthProbe> {
  let state: State = "starting";
  let check: () => Promise<boolean> = async () => false;
  const port = env.SVC_HEALTH_PORT;
  let server: Server | undefined;
  if (port !== undefined) {
    server = createServer((request, response) => {
      const send = (status: number, body: object) => {
        response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
        response.end(JSON.stringify(body));
      };
      const path = (request.url ?? "/").split("?")[0];
      if (request.method !== "GET" || (path !== "/healthz" && path !== "/readyz")) {
        return send(404, { status: "not found" });
      }
      if (path === "/healthz") return send(200, { status: "ok" });
      if (state !== "ready") return send(503, { status: state });
      void withTimeout(check(), CHECK_TIMEOUT_MS).then(
        (ok) => send(ok ? 200 : 503, { status: ok ? "ready" : "unavailable" }),
        () => send(503, { status: "unavailable" }),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server?.once("error", reject);
      server?.listen(port, env.SVC_HEALTH_HOST, () => resolve());
    });
    logger.info({ port, host: env.SVC_HEALTH_HOST }, "health probes listening");
  }
  return {
    ready: (given) => {
      check = given;
      if (state === "starting") state = "ready";
    },
    draining: () => {
      state = "draining";
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (!server) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
