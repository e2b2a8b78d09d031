import {
  type Attributes,
  type Context,
  type Counter,
  context,
  type Histogram,
  metrics,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type TextMapSetter,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { errorStatus } from "@svc/contracts";
import type { BusReply, BusRequest, Handler } from "./bus";

const SCOPE = "@svc/bus";
/** Seconds, from 1 ms to 30 s: the default buckets are meant for milliseconds. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Spans and metrics of bus requests, the same for every implementation. A request gets a CLIENT span
 * and its handler a SERVER span, its child through the W3C context the message carries; spans are only
 * made inside a trace that someone else started (the gateway's HTTP span), so that readiness pings
 * and callers without a trace cost nothing. Durations are recorded for every request, labelled by
 * subject and outcome (`ok` or the error code).
 */
export class BusTelemetry {
  private readonly tracer: Tracer;
  private readonly clientDuration: Histogram;
  private readonly serverDuration: Histogram;
  private readonly timeouts: Counter;

  /** `system` is `messaging.system`: "nats", or "in-process" for the embedded bus. */
  constructor(private readonly system: string) {
    this.tracer = trace.getTracer(SCOPE);
    const meter = metrics.getMeter(SCOPE);
    const advice = { explicitBucketBoundaries: DURATION_BUCKETS };
    this.clientDuration = meter.createHistogram("messaging.client.operation.duration", {
      description: "Bus requests sent, from request to reply",
      unit: "s",
      advice,
    });
    this.serverDuration = meter.createHistogram("messaging.process.duration", {
      description: "Bus requests handled, from receipt to reply",
      unit: "s",
      advice,
    });
    this.timeouts = meter.createCounter("svc.bus.client.timeouts", {
      description: "Bus requests that got no reply in time (answered 504 upstream_timeout)",
      unit: "{request}",
    });
  }

  /**
   * Sends a request inside its CLIENT span; `send` gets the context to inject into the message
   * headers. Resolves with the reply, or rejects as `send` does.
   */
  async request(
    subject: string,
    request: BusRequest,
    send: (sendContext: Context) => Promise<BusReply>,
  ): Promise<BusReply> {
    const started = performance.now();
    const parent = context.active();
    const span = trace.getSpan(parent)
      ? this.tracer.startSpan(
          `request ${subject}`,
          {
            kind: SpanKind.CLIENT,
            attributes: {
              ...this.spanAttributes(subject, "send"),
              "svc.request_id": request.context?.requestId ?? "",
            },
          },
          parent,
        )
      : undefined;
    try {
      const reply = await send(span ? trace.setSpan(parent, span) : parent);
      const outcome = outcomeOf(reply);
      if (outcome === "upstream_timeout") this.timeouts.add(1, this.metricAttributes(subject, outcome));
      this.finish(span, this.clientDuration, subject, outcome, started);
      return reply;
    } catch (error) {
      span?.recordException(error as Error);
      this.finish(span, this.clientDuration, subject, "internal_error", started);
      throw error;
    }
  }

  /**
   * Runs a handler inside its SERVER span, a child of the requester's span found in `parent` (the
   * context extracted from the message headers). `read` decodes the message inside the span, so that
   * a message that cannot be read fails like a handler that throws. Rejects as the handler does.
   */
  serve(subject: string, parent: Context, read: () => BusRequest, handler: Handler): Promise<BusReply> {
    const started = performance.now();
    const span = trace.getSpan(parent)
      ? this.tracer.startSpan(
          `process ${subject}`,
          { kind: SpanKind.SERVER, attributes: this.spanAttributes(subject, "process") },
          parent,
        )
      : undefined;
    return context
      .with(span ? trace.setSpan(parent, span) : parent, async () => {
        const request = read();
        span?.setAttribute("svc.request_id", request.context?.requestId ?? "");
        return handler(request);
      })
      .then(
        (reply) => {
          this.finish(span, this.serverDuration, subject, outcomeOf(reply), started);
          return reply;
        },
        (error: unknown) => {
          span?.recordException(error as Error);
          this.finish(span, this.serverDuration, subject, "internal_error", started);
          throw error;
        },
      );
  }

  private finish(
    span: Span | undefined,
    histogram: Histogram,
    subject: string,
    outcome: string,
    started: number,
  ): void {
    const attributes = this.metricAttributes(subject, outcome);
    histogram.record((performance.now() - started) / 1000, attributes);
    if (!span) return;
    span.setAttribute("svc.outcome", outcome);
    if (isServerError(outcome)) {
      span.setAttribute("error.type", outcome);
      span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
    }
    span.end();
  }

  private spanAttributes(subject: string, operation: "send" | "process"): Attributes {
    return {
      "messaging.system": this.system,
      "messaging.operation.type": operation,
      "messaging.operation.name": operation === "send" ? "request" : "process",
      "messaging.destination.name": subject,
    };
  }

  private metricAttributes(subject: string, outcome: string): Attributes {
    const attributes: Attributes = {
      "messaging.system": this.system,
      "messaging.destination.name": subject,
      "svc.outcome": outcome,
    };
    if (isServerError(outcome)) attributes["error.type"] = outcome;
    return attributes;
  }
}

/** Where the trace context rides in an in-process message, as it does in NATS headers. */
export type Carrier = Record<string, string>;
export const carrierSetter: TextMapSetter<Carrier> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};
export const carrierGetter: TextMapGetter<Carrier> = {
  get: (carrier, key) => carrier[key],
  keys: (carrier) => Object.keys(carrier),
};

function outcomeOf(reply: BusReply): string {
  return reply.ok ? "ok" : reply.error.code;
}

/** Failures of the platform rather than of the request: these mark a span as an error. */
function isServerError(outcome: string): boolean {
  if (outcome === "ok") return false;
  const status = (errorStatus as Record<string, number | undefined>)[outcome];
  return status === undefined || status >= 500;
}
