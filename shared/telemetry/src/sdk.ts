import { context, trace } from "@opentelemetry/api";
import { getRPCMetadata, RPCType } from "@opentelemetry/core";

export interface Telemetry {
  /** True when an exporter is configured and the OpenTelemetry SDK runs in this process. */
  readonly enabled: boolean;
  /** Exports what is still buffered, then stops. */
  shutdown(): Promise<void>;
}

export interface TelemetrySignals {
  traces: boolean;
  metrics: boolean;
  logs: boolean;
}

/**
 * Which signals this process exports, from the standard variables only. Unlike the SDK's own default
 * (OTLP to localhost:4318 whether or not anything listens there), a signal is off until its exporter
 * or an OTLP endpoint is set, so that a bare `npm start` neither pays for telemetry nor logs export
 * failures.
 */
export function telemetrySignals(env: NodeJS.ProcessEnv = process.env): TelemetrySignals {
  const none: TelemetrySignals = { traces: false, metrics: false, logs: false };
  if (isTrue(env.OTEL_SDK_DISABLED)) return none;
  const endpoint = present(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const signal = (exporter: string | undefined, ownEndpoint: string | undefined, byDefault: boolean) => {
    const exporters = list(exporter);
    if (exporters.length > 0) return !exporters.includes("none");
    return byDefault && (endpoint || present(ownEndpoint));
  };
  return {
    traces: signal(env.OTEL_TRACES_EXPORTER, env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, true),
    metrics: signal(env.OTEL_METRICS_EXPORTER, env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, true),
    // Logs go to stdout through pino; OpenTelemetry logs only when asked for by name.
    logs: signal(env.OTEL_LOGS_EXPORTER, undefined, false),
  };
}

export interface StartTelemetryOptions {
  /** `service.name` of the process, unless OTEL_SERVICE_NAME says otherwise. */
  service: string;
}

/**
 * Starts OpenTelemetry (traces, metrics, and the HTTP and PostgreSQL instrumentations) as configured by
 * the standard OTEL_* variables. Call it first: the instrumentations patch `http` and `pg` through
 * require hooks, so anything that loads them must be imported after this resolves.
 */
export async function startTelemetry({ service }: StartTelemetryOptions): Promise<Telemetry> {
  const signals = telemetrySignals();
  if (!signals.traces && !signals.metrics && !signals.logs)
    return { enabled: false, shutdown: async () => {} };
  // Loaded only when needed: the SDK and its exporters are most of the start-up cost of telemetry.
  const [{ NodeSDK }, { HttpInstrumentation }, { PgInstrumentation }] = await Promise.all([
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/instrumentation-http"),
    import("@opentelemetry/instrumentation-pg"),
  ]);
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME?.trim() || service,
    instrumentations: [
      new HttpInstrumentation({
        // Probes would make a trace every few seconds per replica, and their bus pings with it.
        ignoreIncomingRequestHook: (request) => isProbe(request.url),
        // Only the exporters themselves send HTTP from here.
        disableOutgoingRequestInstrumentation: true,
      }),
      new PgInstrumentation({
        // Start-up migrations and pool housekeeping are not part of any request.
        requireParentSpan: true,
        ignoreConnectSpans: true,
        // Statement text only: parameter values may be key hashes or customer data.
        enhancedDatabaseReporting: false,
      }),
    ],
    ...(signals.traces ? {} : { spanProcessors: [] }),
    ...(signals.metrics ? {} : { metricReaders: [] }),
    ...(signals.logs ? {} : { logRecordProcessors: [] }),
  });
  sdk.start();
  return { enabled: true, shutdown: () => sdk.shutdown() };
}

/**
 * Names the route of the HTTP request being served and tags its span with the request id: the HTTP
 * server span and the `http.server.request.duration` metric then carry `http.route`, so that
 * `/v1/projects/a` and `/v1/projects/b` count as one route.
 */
export function tagHttpRequest(route: string | undefined, requestId: string): void {
  const active = context.active();
  const metadata = getRPCMetadata(active);
  if (metadata?.type === RPCType.HTTP && route !== undefined) metadata.route = route;
  trace.getSpan(active)?.setAttribute("svc.request_id", requestId);
}

function isProbe(url: string | undefined): boolean {
  const path = url?.split("?")[0];
  return path === "/healthz" || path === "/readyz";
}

function isTrue(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === "true";
}

function present(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== "";
}

function list(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== "" && item !== "null");
}
