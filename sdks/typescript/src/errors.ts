/**
 * Codes of failures that happen before the API could answer; every other `code` is the API's own
 * (`not_found`, `unknown_column`, …), or `http_<status>` for an answer that is not an API error body.
 */
export type ClientErrorCode = "connection_error" | "timeout" | "invalid_response";

export interface SvcErrorFields {
  status: number;
  code: string;
  message: string;
  requestId?: string | undefined;
  details?: Record<string, unknown> | undefined;
  cause?: unknown;
}

/** Every failure of a call: an error answer of the API, or no usable answer at all (`status` 0). */
export class SvcError extends Error {
  /** The HTTP status, or 0 when no response arrived (connection error or timeout). */
  readonly status: number;
  /** The API's stable machine code, or one of {@link ClientErrorCode}. */
  readonly code: string;
  /** The request id to quote when reporting a problem, when the API gave one. */
  readonly requestId: string | undefined;
  /** Structured details of the error (for example `issues` of a `validation_failed`). */
  readonly details: Record<string, unknown> | undefined;

  constructor(fields: SvcErrorFields) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = "SvcError";
    this.status = fields.status;
    this.code = fields.code;
    this.requestId = fields.requestId;
    this.details = fields.details;
  }

  /** The error an HTTP answer stands for, from the API's error body when it has one. */
  static fromResponse(
    status: number,
    statusText: string,
    text: string,
    headerRequestId?: string | null,
  ): SvcError {
    const body = parseJson(text);
    const requestId =
      isRecord(body) && typeof body.requestId === "string" ? body.requestId : (headerRequestId ?? undefined);
    if (isRecord(body) && typeof body.code === "string" && typeof body.error === "string") {
      return new SvcError({
        status,
        code: body.code,
        message: body.error,
        requestId,
        details: isRecord(body.details) ? body.details : undefined,
      });
    }
    const excerpt = text.trim().slice(0, 200);
    return new SvcError({
      status,
      code: `http_${status}`,
      message: `HTTP ${status}${statusText ? ` ${statusText}` : ""}${excerpt ? `: ${excerpt}` : ""}`,
      requestId,
    });
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
