import { timingSafeEqual } from "node:crypto";
import fastifyCookie from "@fastify/cookie";
import type { Bus, UploadStore } from "@svc/bus";
import {
  buildOpenApiDocument,
  DomainError,
  findInexactNumber,
  findNumberOutOfRange,
  internalErrorMessage,
  operationList,
  platformServices,
} from "@svc/contracts";
import { type Logger, tagHttpRequest } from "@svc/telemetry";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from "fastify";
import { bearerChallenge, CredentialCache, GatewayAuth } from "./auth";
import { sessionRoutes } from "./browser-sessions";
import { type BucketStore, MemoryBucketStore } from "./bucket-store";
import { answerClientErrors } from "./client-errors";
import { type GatewayOptions, oidcSettingsOf, rateLimitsOf } from "./config";
import { answerBeforeTheBody } from "./early-answers";
import {
  inexactNumberBody,
  invalidJsonBody,
  invalidUtf8Body,
  numberOutOfRangeBody,
  sendError,
  toDomainError,
  unsupportedMediaType,
} from "./errors";
import { uploadRoutes } from "./file-upload";
import { LiveChanges } from "./live-changes/live-changes";
import { LoadShedder } from "./load-shedding";
import { mcpEndpoint } from "./mcp/endpoint";
import { oauthRoutes } from "./oauth/routes";
import { clientAddressOf } from "./oauth-throttle";
import { otlpExporters } from "./otlp";
import { publicUrlOf } from "./public-url";
import { RateLimiter } from "./rate-limit";
import { requestIdOf } from "./request-id";
import { operationRoutes, type RouteDeps } from "./routes";
import { IdentityProvider } from "./single-sign-on/identity-provider";
import { singleSignOnRoutes } from "./single-sign-on/routes";
import { parseQueryString, refuseUndecodableQuery } from "./url-encoded";
import { decodeUtf8 } from "./utf8";
import { defaultWebRoot, webFiles, webPage } from "./web-app";
import { defaultResendPolicy } from "./write-resends";

export interface GatewayDeps {
  bus: Bus;
  logger: Logger;
  options: GatewayOptions;
  /**
   * Where rate-limit buckets live: shared by every replica (NATS key-value) when there are several;
   * this process's memory by default, right for the embedded platform's single gateway.
   */
  rateLimitStore?: BucketStore;
  /** The web application's built files; `web/dist` of this repository by default. */
  webRoot?: string;
  /** Where uploaded files (imports) wait for the writer; uploads are refused without it. */
  uploads?: UploadStore;
  /** The file that holds the first owner key (the embedded platform's), named on the sign-in page. */
  ownerKeyFile?: string | undefined;
}

export interface Gateway {
  app: FastifyInstance;
  /** Turns `/readyz` false, so load balancers stop sending before the gateway drains. */
  markDraining(): void;
}

const MAX_PARAM_LENGTH = 1_000;
/** How long a client replaying a dataset's versions may leave a page unread before it is dropped. */
const DRAIN_TIMEOUT_MS = 10_000;

function badPath(code: string): DomainError {
  const message =
    code === "FST_ERR_MAX_PARAM_LENGTH"
      ? `a path segment is longer than ${MAX_PARAM_LENGTH} characters`
      : "a path segment is not a valid URL component (a stray % escape)";
  return new DomainError("validation_failed", `The URL's path is not valid: ${message}`, {
    issues: [{ path: "path", message, code: "invalid_path" }],
  });
}
/** The routes that take a file as their body, in Fastify's notation. */
const uploadPaths = new Set(
  operationList.filter((op) => op.upload).map((op) => op.path.replace(/\{(\w+)\}/g, ":$1")),
);
/** `application/json` and `application/<anything>+json`, with parameters (`; charset=utf-8`) or not. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w!#$&^.+-]+\+)?json(?:\s*;|$)/i;

/** The HTTP face of the platform. Only `main.ts` listens; tests use `app.inject()`. */
export function buildGateway({
  bus,
  logger,
  options,
  rateLimitStore,
  webRoot,
  uploads,
  ownerKeyFile,
}: GatewayDeps): Gateway {
  const shedder = new LoadShedder(
    {
      maxInFlight: options.SVC_GATEWAY_MAX_IN_FLIGHT,
      maxTransfers: options.SVC_GATEWAY_MAX_TRANSFERS,
      maxQueueMs: options.SVC_GATEWAY_MAX_QUEUE_MS,
    },
    logger,
  );
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Requests over the gateway's bounds are refused before Fastify makes anything of them.
    serverFactory: shedder.serverFactory(),
    // One line per request, written by the onResponse hook below with the fields that matter.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.SVC_BODY_LIMIT,
    requestIdHeader: false,
    genReqId: (request) => requestIdOf(request.headers),
    // Long enough that an over-long id reaches validation and gets its 400 with a reason.
    routerOptions: {
      ignoreTrailingSlash: true,
      maxParamLength: MAX_PARAM_LENGTH,
      querystringParser: parseQueryString,
    },
    // A path the router cannot take apart gets the API's error shape, like every other mistake.
    frameworkErrors: (error, request, reply) => {
      reply.header("x-request-id", request.id).header("x-content-type-options", "nosniff");
      return sendError(request, reply, badPath(error.code));
    },
    // And a request that is not even HTTP, which Node's parser refuses before the router sees it.
    clientErrorHandler: answerClientErrors(logger),
  });
  let draining = false;
  app.addHook("onClose", async () => shedder.close());

  // JSON only. An empty body is no body, so that bodiless POST and DELETE work with any client.
  app.removeContentTypeParser(["application/json", "text/plain"]);
  // Fastify tests a pattern against the whole header, parameters included.
  app.addContentTypeParser(JSON_MEDIA_TYPE, { parseAs: "buffer" }, (_request, body, done) => {
    const decoded = decodeUtf8(typeof body === "string" ? Buffer.from(body) : body);
    if ("invalidAt" in decoded) return done(invalidUtf8Body(decoded.invalidAt));
    const text = decoded.text;
    if (text.trim() === "") return done(null, undefined);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return done(invalidJsonBody((error as Error).message));
    }
    const outOfRange = findNumberOutOfRange(value, text);
    if (outOfRange) return done(numberOutOfRangeBody(outOfRange));
    const inexact = findInexactNumber(text);
    if (inexact)
      return done(inexactNumberBody(inexact.text, Buffer.byteLength(text.slice(0, inexact.index))));
    done(null, value);
  });
  // Any other type: an empty body is no body here too (some clients send a Content-Type on every request).
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) =>
    body.length === 0 ? done(null, undefined) : done(unsupportedMediaType()),
  );

  app.addHook("onRequest", async (request, reply) => {
    // nosniff on every answer: a client must take a JSON body (an error echoing input too) as JSON.
    reply.header("x-request-id", request.id).header("x-content-type-options", "nosniff");
    tagHttpRequest(request.routeOptions.url, request.id);
    // The web application's pages read their own address; the API and OAuth read the query string.
    if (request.url.startsWith("/v1/") || request.url.startsWith("/oauth/")) refuseUndecodableQuery(request);
    // A request without a body has no media type to refuse, even an empty or malformed one (but an
    // upload's names the format of a file, which is then refused as empty).
    const { "content-length": length, "transfer-encoding": chunked } = request.headers;
    const bodiless = chunked === undefined && (length === undefined || length === "0");
    if (bodiless && !uploadPaths.has(request.routeOptions.url ?? "")) delete request.headers["content-type"];
  });
  const rateLimiter = new RateLimiter(
    rateLimitStore ?? new MemoryBucketStore(),
    rateLimitsOf(options),
    logger,
  );
  const clientAddress = clientAddressOf(options.SVC_TRUST_PROXY);
  app.addHook("onResponse", async (request, reply) => {
    request.log.info(
      {
        requestId: request.id,
        method: request.method,
        url: request.routeOptions.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      "request",
    );
  });

  const publicUrl = publicUrlOf(options);
  app.setErrorHandler((error, request, reply) => {
    const domain = toDomainError(error, options.SVC_BODY_LIMIT);
    if (domain?.code === "unauthenticated" && request.url.startsWith("/v1/")) {
      reply.header("www-authenticate", bearerChallenge(request, publicUrl(request)));
    }
    if (domain) return sendError(request, reply, domain);
    request.log.error({ err: error, requestId: request.id }, "unexpected gateway error");
    return sendError(
      request,
      reply,
      new DomainError("internal_error", internalErrorMessage(`request id ${request.id}`)),
    );
  });
  const oidc = oidcSettingsOf(options);
  const webFolder = webRoot ?? defaultWebRoot();
  const web = webPage(webFolder, { ownerKeyFile, singleSignOn: oidc?.name });
  app.setNotFoundHandler((request, reply) => {
    if (web.sendPage(request, reply)) return reply;
    return sendError(
      request,
      reply,
      new DomainError("not_found", `No route ${request.method} ${request.url.split("?")[0]}`),
    );
  });

  const auth = new GatewayAuth({
    credentials: new CredentialCache(bus, options.SVC_AUTH_CACHE_MS, options.SVC_REQUEST_TIMEOUT_MS),
    publicUrl,
    isOperator: operatorCheck(options.SVC_ADMIN_TOKEN),
  });
  const timeoutMs = options.SVC_REQUEST_TIMEOUT_MS;
  const liveChanges = new LiveChanges(
    bus,
    {
      perKey: options.SVC_GATEWAY_STREAMS_PER_KEY,
      maxStreams: options.SVC_GATEWAY_MAX_STREAMS,
      keepAliveMs: options.SVC_GATEWAY_STREAM_KEEPALIVE_MS,
      maxBufferedBytes: options.SVC_GATEWAY_STREAM_BUFFER_BYTES,
      drainTimeoutMs: DRAIN_TIMEOUT_MS,
    },
    logger,
    timeoutMs,
  );
  // Streams never end on their own: they end before the server waits for its connections to close.
  app.addHook("preClose", async () => liveChanges.close());
  const resends = { ...defaultResendPolicy, silenceMs: options.SVC_WRITE_SILENCE_MS };
  const routeDeps: RouteDeps = {
    bus,
    auth,
    timeoutMs,
    resends,
    logger,
    rateLimiter,
    liveChanges,
  };
  // Loaded in this order, each when the gateway starts. What the whole application shares comes first
  // (`fastify-plugin`, not encapsulated): a scope copies its parent's hooks and parsers as it opens.
  // Cookies: request.cookies and reply.setCookie, which @fastify/cookie declares for every route.
  void app.register(fastifyCookie);
  void app.register(otlpExporters);
  void app.register(answerBeforeTheBody);
  // Then the routes, each group an encapsulated plugin: what one adds (a parser, a hook) stays its own.
  void app.register(probes, { bus, isDraining: () => draining });
  void app.register(operationRoutes, routeDeps);
  void app.register(uploadRoutes, { ...routeDeps, uploads });
  void app.register(sessionRoutes, { bus, auth, timeoutMs, rateLimiter, publicUrl, clientAddress });
  void app.register(oauthRoutes, { bus, timeoutMs, publicUrl, rateLimiter, clientAddress });
  if (oidc) {
    const provider = new IdentityProvider(oidc, logger);
    void app.register(singleSignOnRoutes, {
      bus,
      provider,
      timeoutMs,
      rateLimiter,
      publicUrl,
      clientAddress,
    });
  }
  void app.register(mcpEndpoint, { bus, auth, timeoutMs, resends, logger, rateLimiter, publicUrl });
  void app.register(webFiles, { root: webFolder });

  return {
    app,
    markDraining: () => {
      draining = true;
    },
  };
}

/** `/healthz`, `/readyz` and the OpenAPI document: what load balancers and clients ask of any gateway. */
async function probes(app: FastifyInstance, { bus, isDraining }: { bus: Bus; isDraining: () => boolean }) {
  app.get("/healthz", async () => ({ status: "ok" }));
  let openApi: string | undefined;
  app.get("/v1/openapi.json", async (_request, reply) => {
    openApi ??= JSON.stringify(buildOpenApiDocument());
    return reply.type("application/json").send(openApi);
  });
  app.get("/readyz", async (_request, reply) => {
    const services = await pingServices(bus);
    const draining = isDraining();
    const ready = !draining && bus.isConnected() && Object.values(services).every((s) => s === "ok");
    return reply
      .status(ready ? 200 : 503)
      .send({ status: ready ? "ready" : draining ? "draining" : "unavailable", services });
  });
}

async function pingServices(bus: Bus): Promise<Record<string, string>> {
  const entries = await Promise.all(
    Object.keys(platformServices).map(async (service) => {
      const reply = await bus.ping(service, 1_000);
      return [service, reply.ok ? "ok" : reply.error.code] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** Compares in constant time; undefined when the operator route is disabled. */
function operatorCheck(adminToken: string | undefined): ((token: string) => boolean) | undefined {
  if (!adminToken) return undefined;
  const expected = Buffer.from(adminToken);
  return (token) => {
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
}
