import { z } from "zod";
import { unescapeProtoKey } from "./schemas/proto-keys";

/**
 * The one error vocabulary of the platform: every code a client can see, with its HTTP status.
 * Services return these as data over the bus; the gateway maps them to HTTP exactly once.
 */
export const errorStatus = {
  validation_failed: 400,
  unknown_column: 400,
  unknown_row: 400,
  too_many_columns: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  idempotency_key_reused: 409,
  version_mismatch: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_traces: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
  outcome_unknown: 503,
  upstream_timeout: 504,
} as const;

export type ErrorCode = keyof typeof errorStatus;
export const errorCodes = Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]];

export const errorCodeSchema = z.enum(errorCodes);

export const domainErrorSchema = z.object({
  code: errorCodeSchema,
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type DomainErrorData = z.infer<typeof domainErrorSchema>;

/** The HTTP error body, whatever the status. */
export const errorBodySchema = z.object({
  error: z.string(),
  code: errorCodeSchema,
  requestId: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * A domain error: thrown inside a service's use-cases, caught at the handler boundary and sent over
 * the bus as data. Its message is safe to show to a client.
 */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "DomainError";
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return errorStatus[this.code];
  }

  toData(): DomainErrorData {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }

  static fromData(data: DomainErrorData): DomainError {
    return new DomainError(data.code, data.message, data.details);
  }
}

/**
 * The one message a client gets for anything unexpected: nothing of the cause (that goes to the log),
 * only the id to quote when reporting it, where there is one.
 */
export const internalErrorMessage = (reference?: string): string =>
  reference === undefined ? "Internal error" : `Internal error; quote ${reference} when reporting it`;

export const notFound = (what: string): DomainError => new DomainError("not_found", `${what} not found`);

/** Turns zod issues into the `details.issues` list of a `validation_failed` error. */
export function validationError(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly (string | number)[] = [],
  what = "Request",
): DomainError {
  const list = issues.map((issue) => ({
    // A `__proto__` key goes through the schemas escaped (see proto-keys.ts): named as it was sent.
    path: [...prefix, ...issue.path].map((key) => unescapeProtoKey(String(key))).join("."),
    message: issue.message,
    code: issue.code,
  }));
  const first = list[0];
  const summary = first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : "invalid";
  const more = list.length > 1 ? ` (and ${list.length - 1} more problem${list.length > 2 ? "s" : ""})` : "";
  return new DomainError("validation_failed", `${what} is invalid: ${summary}${more}`, { issues: list });
}
