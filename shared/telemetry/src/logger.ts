import { context, trace } from "@opentelemetry/api";
import { type DestinationStream, type Logger, pino } from "pino";

export type { Logger };

/**
 * Paths that may hold a secret; pino replaces them before anything is written. Keys are matched
 * exactly, so header names appear in both the spelling Node gives them and the one people write.
 */
const REDACT = [
  "authorization",
  "Authorization",
  "*.authorization",
  "*.Authorization",
  "*.headers.authorization",
  "*.headers.Authorization",
  "cookie",
  "*.cookie",
  "*.headers.cookie",
  '*.headers["set-cookie"]',
  "token",
  "*.token",
  "accessToken",
  "*.accessToken",
  "refreshToken",
  "*.refreshToken",
  "apiKey",
  "*.apiKey",
  "password",
  "*.password",
  "secret",
  "*.secret",
  "clientSecret",
  "*.clientSecret",
];

/**
 * Field names that hold a secret wherever they sit in a line, in any spelling: `token`, `adminToken`,
 * `client_secret`, `Authorization`, `set-cookie`… pino's paths above reach one level down only (`*.token`),
 * so a token nested deeper (`{ grant: { tokens: { token } } }`) would be written as it is.
 */
const SECRET_FIELD = /^(authorization|cookie|set-cookie|api[-_]?key)$|(token|secret|password)$/i;
const CENSOR = "[redacted]";
/** Deeper than any line we write; past it, a value is dropped rather than walked forever. */
const MAX_DEPTH = 12;

/** A copy of `value` with every secret field censored, at any depth; plain objects and arrays only. */
function redactSecrets(value: unknown, depth = 0): unknown {
  if (Array.isArray(value)) {
    return depth >= MAX_DEPTH ? CENSOR : value.map((item) => redactSecrets(item, depth + 1));
  }
  if (!isPlainObject(value)) return value;
  if (depth >= MAX_DEPTH) return CENSOR;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] =
      SECRET_FIELD.test(key) && inner !== null && inner !== undefined
        ? CENSOR
        : redactSecrets(inner, depth + 1);
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Where lines go; stdout when not given. */
  destination?: DestinationStream;
}

/** The ids of the span that is active where a line is logged, so that logs and traces join up. */
function traceFields(): object {
  const span = trace.getSpanContext(context.active());
  // A fresh object every time: pino merges the line's own fields into what the mixin returns.
  if (span === undefined || !trace.isSpanContextValid(span)) return {};
  return {
    trace_id: span.traceId,
    span_id: span.spanId,
    trace_flags: `0${span.traceFlags.toString(16)}`,
  };
}

/** Structured JSON logs on stdout, one line per event, with the active trace's ids, never a secret. */
export function createLogger({ service, level, destination }: LoggerOptions): Logger {
  const options = {
    name: service,
    level: level ?? process.env.LOG_LEVEL ?? "info",
    // The paths also censor what serializers produce (a request's headers) and a child logger's
    // bindings, which pino does not pass through formatters; `formatters.log` censors a line's own
    // plain data at any depth.
    redact: { paths: REDACT, censor: CENSOR },
    formatters: {
      log: (object: Record<string, unknown>) => redactSecrets(object) as Record<string, unknown>,
    },
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: traceFields,
  };
  return destination ? pino(options, destination) : pino(options);
}

/** A logger that writes nothing, for tests and tools. */
export const silentLogger = (): Logger => pino({ level: "silent" });
