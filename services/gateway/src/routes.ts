import type { RawInput } from "@svc/bus";
import {
  DomainError,
  type Operation,
  operationList,
  type RequestContext,
  SESSION_TOKEN_PREFIX,
} from "@svc/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { assertSameSiteWrite, sessionTokenOf } from "./browser-sessions";
import type { CredentialCache } from "./credential-cache";
import { sendFile } from "./file-download";
import type { LiveChanges } from "./live-changes/live-changes";
import { streamEvents } from "./live-changes/route";
import { invokeOperation, type OperationCallDeps } from "./operation-call";

export interface RouteDeps extends OperationCallDeps {
  credentials: CredentialCache;
  /** Checks the operator token; undefined when operator routes are disabled. */
  isOperator: ((token: string) => boolean) | undefined;
  /** The address clients reach the gateway at: the origin a session's writes must come from. */
  publicUrl: (request: FastifyRequest) => string;
  /** The live-changes streams this gateway holds open. */
  liveChanges: LiveChanges;
}

const BEARER = /^Bearer\s+([\x21-\x7e]{1,512})\s*$/i;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** One Fastify route per operation of the table: authenticate, then authorise, validate and forward. */
export function registerOperations(app: FastifyInstance, deps: RouteDeps): void {
  for (const op of operationList) {
    if (op.access === "operator" && !deps.isOperator) continue;
    // A file upload streams its body: see file-upload.ts.
    if (op.upload) continue;
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

export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) {
    throw new DomainError("unauthenticated", 'Missing API key: send it as "Authorization: Bearer <key>"');
  }
  const match = BEARER.exec(header);
  if (!match?.[1]) {
    throw new DomainError("unauthenticated", 'Malformed Authorization header: expected "Bearer <key>"');
  }
  // A session token lives in the browser's HttpOnly cookie, where its writes are checked for CSRF.
  if (match[1].startsWith(SESSION_TOKEN_PREFIX)) {
    throw new DomainError(
      "unauthenticated",
      "A session token works only as the web application's cookie; send an API key as the bearer token",
    );
  }
  return match[1];
}

export async function authenticate(
  op: Operation,
  request: FastifyRequest,
  deps: RouteDeps,
): Promise<RequestContext> {
  const token = op.access === "operator" ? bearerToken(request) : credentialTokenOf(request, deps);
  const idempotencyKey = idempotencyKeyOf(request);
  const minVersion = minVersionOf(request);
  // Literals of one shape, not spreads: spreading a base object into the context made V8 create new
  // hidden classes for every request, which live in the old generation until a full collection.
  let context: RequestContext;
  if (op.access === "operator") {
    if (!deps.isOperator?.(token))
      throw new DomainError("unauthenticated", "This route needs the operator token");
    context = {
      requestId: request.id,
      organizationId: null,
      role: null,
      actor: null,
      origin: deps.publicUrl(request),
    };
  } else {
    const credential = await deps.credentials.verify(token, request.id);
    context = {
      requestId: request.id,
      organizationId: credential.organizationId,
      role: credential.role,
      actor: credential.actor,
      origin: deps.publicUrl(request),
    };
    if (credential.sessionId !== undefined) context.sessionId = credential.sessionId;
  }
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

/** The bearer credential when there is one; else the web application's session cookie. */
function credentialTokenOf(request: FastifyRequest, deps: RouteDeps): string {
  if (request.headers.authorization === undefined) {
    const publicUrl = deps.publicUrl(request);
    const sessionToken = sessionTokenOf(request, publicUrl);
    if (sessionToken !== undefined) {
      assertSameSiteWrite(request, sessionToken, publicUrl);
      return sessionToken;
    }
  }
  return bearerToken(request);
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
