import { randomBytes } from "node:crypto";
import { InProcessBus } from "@svc/bus";
import {
  DomainError,
  operations,
  type RequestContext,
  type Role,
  subjects,
  type VerifiedCredential,
} from "@svc/contracts";
import { serveOperation, serveOperatorOperation, serveSubject } from "@svc/service";
import { type Logger, silentLogger } from "@svc/telemetry";
import { buildGateway, type Gateway, type GatewayDeps } from "../app";
import { gatewayOptionsSchema } from "../config";

/**
 * A gateway built with `buildGateway`, in front of stand-in services on the in-process bus: an `auth`
 * that knows a few keys, and the handful of operations the gateway's own tests call. The gateway sees
 * exactly what it sees in production (bus requests and replies); tests drive it with `app.inject()`.
 */
export interface FakePlatform {
  gateway: Gateway;
  logger: Logger;
  /** A key of organisation `org_a` with the given role (a new key per call). */
  key(role?: Role, organizationId?: string): string;
  /** What reached the services: the context of every operation call, in order. */
  calls: { operationId: string; context: RequestContext; input: unknown }[];
  /** The subject of every request the gateway sent on the bus, in order (a credential check too). */
  requested: string[];
  close(): Promise<void>;
}

export async function fakePlatform(
  env: Record<string, string> = {},
  deps: Partial<Pick<GatewayDeps, "rateLimitStore" | "logger" | "webRoot" | "uploads" | "ownerKeyFile">> = {},
): Promise<FakePlatform> {
  const bus = new InProcessBus();
  const logger = deps.logger ?? silentLogger();
  const credentials = new Map<string, VerifiedCredential>();
  const calls: FakePlatform["calls"] = [];
  const requested: string[] = [];
  const request = bus.request.bind(bus);
  bus.request = (subject, ...rest) => {
    requested.push(subject);
    return request(subject, ...rest);
  };

  serveSubject(bus, subjects.auth.verify, logger, async (request) => {
    const credential = credentials.get((request.input as { token: string }).token);
    if (!credential) throw new DomainError("unauthenticated", "Unknown or revoked API key");
    return credential;
  });
  serveOperation(bus, operations.getAccount, logger, async (input, context) => {
    calls.push({ operationId: "getAccount", context, input });
    const id = context.organizationId ?? "";
    return { organization: { id, name: id, slug: id }, role: context.role ?? "viewer", user: null };
  });
  serveOperatorOperation(bus, operations.createOrganization, logger, async (input, context) => {
    calls.push({ operationId: "createOrganization", context, input });
    const token = `svc_${randomBytes(16).toString("hex")}`;
    return {
      organization: {
        id: "org_new",
        name: input.body.name,
        slug: "new",
        createdAt: new Date().toISOString(),
      },
      apiKey: {
        id: "key_new",
        name: "owner",
        role: "owner" as const,
        maskedToken: `svc_…${token.slice(-4)}`,
        createdAt: new Date().toISOString(),
        lastUsedAt: null,
        createdBy: null,
        token,
        tokenAlreadyShown: false,
      },
      owner: null,
    };
  });
  serveOperation(bus, operations.ingestTraces, logger, async (input, context) => {
    calls.push({ operationId: "ingestTraces", context, input });
    return { partialSuccess: {} };
  });
  // Sessions as auth keeps them: opened with a known key, acting with its organisation and role.
  let sessions = 0;
  serveSubject(bus, subjects.sessions.create, logger, async (request) => {
    const key = credentials.get((request.input as { apiKey?: string }).apiKey ?? "");
    if (!key) throw new DomainError("unauthenticated", "The API key is not valid; it may have been revoked");
    const token = `svc_ss_${randomBytes(32).toString("base64url")}`;
    const sessionId = `session_${++sessions}`;
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    credentials.set(token, { ...key, actor: { kind: "session", id: sessionId }, expiresAt });
    return { token, sessionId, expiresAt };
  });
  serveSubject(bus, subjects.sessions.end, logger, async (request) => {
    credentials.delete((request.input as { token: string }).token);
    return null;
  });
  serveSubject(bus, subjects.oauth.registerClient, logger, async () => ({
    client_id: `client_${randomBytes(4).toString("hex")}`,
    client_id_issued_at: Math.floor(Date.now() / 1000),
    redirect_uris: ["http://127.0.0.1:3000/callback"],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  }));

  const gateway = buildGateway({
    bus,
    logger,
    options: gatewayOptionsSchema.parse(env),
    ...(deps.rateLimitStore ? { rateLimitStore: deps.rateLimitStore } : {}),
    ...(deps.webRoot ? { webRoot: deps.webRoot } : {}),
    ...(deps.uploads ? { uploads: deps.uploads } : {}),
    ...(deps.ownerKeyFile ? { ownerKeyFile: deps.ownerKeyFile } : {}),
  });
  await gateway.app.ready();
  let keys = 0;
  return {
    gateway,
    logger,
    calls,
    requested,
    key: (role = "owner", organizationId = "org_a") => {
      const token = `svc_test_${++keys}_${randomBytes(8).toString("hex")}`;
      credentials.set(token, { organizationId, role, actor: { kind: "apiKey", id: `key_${keys}` } });
      return token;
    },
    close: async () => {
      await gateway.app.close();
      await bus.close();
    },
  };
}
