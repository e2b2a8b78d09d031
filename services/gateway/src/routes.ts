import type { RawInput } from "@svc/bus";
import { DomainError, type Operation, operationList, type RequestContext } from "@svc/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { GatewayAuth } from "./auth";
import { sendFile } from "./file-download";
import type { LiveChanges } from "./live-changes/live-changes";
import { streamEvents } from "./live-changes/route";
import { invokeOperation, type OperationCallDeps } from "./operation-call";

export interface RouteDeps extends OperationCallDeps {
  auth: GatewayAuth;
  /** The live-changes streams this gateway holds open. */
  liveChanges: LiveChanges;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * One Fastify route per operation of the table: authenticate, then authorise, validate and forward.
 * An encapsulated plugin: what it adds stays in its own scope.
 */
export async function operationRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  for (const op of operationList) {
    if (op.access === "operator" && !deps.auth.operatorRoutes) continue;
    // A file upload streams its body: see file-upload.ts. The browser's session: browser-sessions.ts.
    if (op.upload || op.browserSession) continue;
    app.route({
      method: op.method,
      url: op.path.replace(/\{(\w+)\}/g, ":$1"),
      handler: async (request, reply) => {
        // First, so that every answer of the route carries it, whichever way it ends.
        if (op.oneTimeSecret) reply.header("cache-control", "no-store");
        const context = await authenticate(op, request, deps);
        if (op.file) return sendFile(deps, op, context, rawInput(op, request), reply);
        if (op.events) return streamEvents(deps, op, context, rawInput(op, request), request, reply);
        const { status, data } = await invokeOperation(deps, op, context, rawInput(op, request));
        reply.status(status);
        return status === 204 ? reply.send() : reply.send(data);
      },
    });
  }
}

/**
 * The call's context: the caller (see auth/), then the headers every operation reads. The credential is
 * read first and verified last, so that a malformed header is refused without asking `auth`.
 */
export async function authenticate(
  op: Operation,
  request: FastifyRequest,
  deps: RouteDeps,
): Promise<RequestContext> {
  const presented = deps.auth.presented(request, op.access);
  const idempotencyKey = idempotencyKeyOf(request);
  const minVersion = minVersionOf(request);
  const context = await deps.auth.callerOf(request, presented);
  if (idempotencyKey !== undefined) context.idempotencyKey = idempotencyKey;
  if (minVersion !== undefined) context.minVersion = minVersion;
  return context;
}

/** `X-Svc-Min-Version`: the dataset version a read must see (a version the caller wrote). */
function minVersionOf(request: FastifyRequest): number | undefined {
  const value = request.headers["x-svc-min-version"];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !/^\d{1,15}$/.test(value.trim())) {
    const message = "must be a dataset version: a whole number from 0, as a write answered it";
    throw new DomainError("validation_failed", `X-Svc-Min-Version ${message}`, {
      issues: [{ path: "header.X-Svc-Min-Version", message, code: "custom" }],
    });
  }
  return Number(value.trim());
}

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers["idempotency-key"];
  if (key === undefined) return undefined;
  if (typeof key !== "string" || !IDEMPOTENCY_KEY.test(key)) {
    throw new DomainError("validation_failed", "Idempotency-Key must be 1-255 visible ASCII characters", {
      issues: [
        { path: "header.Idempotency-Key", message: "must be 1-255 visible ASCII characters", code: "custom" },
      ],
    });
  }
  return key;
}

export function rawInput(op: Operation, request: FastifyRequest): RawInput {
  return {
    params: (request.params ?? {}) as Record<string, unknown>,
    query: (request.query ?? {}) as Record<string, unknown>,
    // An operation without a body ignores one: it is not checked, so it must not travel either.
    body: op.body === null ? undefined : request.body,
    headers: headerInput(op, request),
  };
}

/** Header inputs are named in camelCase in the table (`ifMatch`) and kebab-case on the wire (`If-Match`). */
function headerInput(op: Operation, request: FastifyRequest): Record<string, unknown> {
  if (!(op.headers instanceof z.ZodObject)) return {};
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(op.headers.shape)) {
    const value = request.headers[key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)];
    if (typeof value === "string") values[key] = key === "ifMatch" ? unquoteEtag(value) : value;
  }
  return values;
}

/** `If-Match: 3`, `"3"` and `W/"3"` all mean version 3. */
const unquoteEtag = (value: string) =>
  value
    .trim()
    .replace(/^W\//, "")
    .replace(/^"(.*)"$/, "$1");
