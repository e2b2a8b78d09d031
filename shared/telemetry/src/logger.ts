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
    redact: { paths: REDACT, censor: "[redacted]" },
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: traceFields,
  };
  return destination ? pino(options, destination) : pino(options);
}

/** A logger that writes nothing, for tests and tools. */
export const silentLogger = (): Logger => pino({ level: "silent" });
