import { context, trace } from "@opentelemetry/api";
import { type DestinationStream, type Logger, pino } from "pino";

export type { Logger };

/**
 * Field names that hold a secret wherever they sit in a line, in any spelling: `token`, `adminToken`,
 * `client_secret`, `Authorization`, `set-cookie`… Matched by name at any depth, rather than with
 * pino's `redact` paths: those reach a fixed depth only (`*.token` misses `{ grant: { tokens: { token } } }`),
 * and a path that starts with `*` makes pino run every path over every binding of every child logger,
 * the one the gateway makes for each request included.
 */
const SECRET_FIELD = /^(authorization|cookie|set-cookie|api[-_]?key)$|(token|secret|password)$/i;
const CENSOR = "[redacted]";
/** Deeper than any line we write; past it, a value is dropped rather than walked forever. */
const MAX_DEPTH = 12;

/**
 * A copy of `value` with every secret field censored, at any depth: plain objects, arrays, and errors,
 * which pino's error serializer turns into their type, message, stack, cause and own fields (an error
 * may carry what it was given: `error.token`), whatever key they are logged under.
 */
function redactSecrets(value: unknown, depth = 0): unknown {
  if (value instanceof Error) return redactSecrets(pino.stdSerializers.err(value), depth);
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

/** The prototype of what pino's error serializer returns, for an error and each error it holds. */
const SERIALIZED_ERROR = Object.getPrototypeOf(pino.stdSerializers.err(new Error()));

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || proto === SERIALIZED_ERROR;
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
    // A line's own fields; a child logger's bindings are censored by `child` below.
    formatters: {
      log: (object: Record<string, unknown>) => redactSecrets(object) as Record<string, unknown>,
    },
    // `formatters.log` has serialized an error already; pino's own serializer, which runs after it,
    // would serialize that again as an "Object".
    serializers: { err: (value: unknown) => redactSecrets(value) },
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: traceFields,
  };
  const logger = destination ? pino(options, destination) : pino(options);
  // pino's `formatters.bindings` applies to the root logger's bindings only. Every child inherits this
  // method from the root (pino makes a child with `Object.create(parent)`), grandchildren included.
  const child = logger.child;
  logger.child = function (this: Logger, bindings, childOptions) {
    return child.call(this, redactSecrets(bindings) as typeof bindings, childOptions);
  } as typeof child;
  return logger;
}

/** A logger that writes nothing, for tests and tools. */
export const silentLogger = (): Logger => pino({ level: "silent" });
