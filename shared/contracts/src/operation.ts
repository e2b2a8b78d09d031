import type { z } from "zod";
import type { ErrorCode } from "./errors";
import type { Role } from "./schemas/common";

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/** What a call does to the platform's data; MCP tool annotations state exactly this. */
export interface OperationEffect {
  /** Changes nothing. */
  readOnly: boolean;
  /** May overwrite or remove what exists (a versioned edit too: the current data changes). */
  destructive: boolean;
  /** Repeating the call with the same input changes nothing more (an edit that makes a new version does). */
  idempotent: boolean;
}

/** A request body shown in the API's documentation. */
export interface BodyExample<T = unknown> {
  summary: string;
  value: T;
}

/** A response header an operation sets, as its documentation describes it. */
export interface ResponseHeader {
  description: string;
  type: "string" | "integer";
}

/**
 * One operation of the public API, declared once. The gateway's routes, the OpenAPI document, the
 * MCP tools, the CLI and the SDKs all come from this.
 */
export interface Operation<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  H extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI-style path under the base address, e.g. `/v1/projects/{projectSlug}`. */
  path: string;
  /** The command under its tag in generated clients: `svc datasets update-row`. */
  command: string;
  tag:
    | "account"
    | "organizations"
    | "api-keys"
    | "members"
    | "projects"
    | "datasets"
    | "experiments"
    | "model-prices"
    | "sessions"
    | "traces";
  summary: string;
  description?: string;
  subject: string;
  /** Least role that may call it; `operator` means the operator token, not an API key. */
  access: Role | "operator";
  params: P;
  query: Q;
  body: B | null;
  /** Request headers that become input (for example If-Match). */
  headers: H | null;
  /** What each request header means, by its HTTP name, where its schema does not say. */
  headerDescriptions?: Readonly<Record<string, string>>;
  /**
   * Request bodies worth showing, chosen by hand and named; an operation with a body and none of these
   * gets one made from its schema. Each must be a body the operation accepts.
   */
  bodyExamples?: Readonly<Record<string, BodyExample<z.input<B>>>>;
  response: R | null;
  /**
   * Set when the operation answers with a file rather than JSON: its media type per format (the
   * query's `format`), and the headers that describe the file. The gateway streams it; it is not an
   * MCP tool.
   */
  file?: {
    mediaTypes: Readonly<Record<string, string>>;
    headers?: Readonly<Record<string, ResponseHeader>>;
  };
  /**
   * Set when the operation answers with a stream of Server-Sent Events (`text/event-stream`) that stays
   * open, each event's data a `response`: a dataset's live changes. The gateway holds the stream and
   * feeds it from bus events; it is not an MCP tool, and generated clients leave it to a helper.
   */
  events?: { name: string };
  /**
   * Set when the request body is a file rather than JSON (an import): the media type per format. The
   * gateway streams it into the upload store and hands the service its name, never its bytes.
   */
  upload?: { mediaTypes: Readonly<Record<string, string>> };
  /**
   * Set when the success response holds a secret shown this once (a new API key's token): the gateway
   * answers with `Cache-Control: no-store`, so that no cache on the way keeps it, and the document says so.
   */
  oneTimeSecret?: true;
  /**
   * Set on the web application's session routes (signing in and out, who is signed in, a mailed
   * sign-in link): the gateway serves them itself, keeping the session token in an HttpOnly cookie,
   * and only the web application calls them (through the TypeScript SDK). They are neither CLI
   * commands, MCP tools nor Python SDK methods, and take no Idempotency-Key. `credential`: what the
   * request carries, nothing (signing in) or the session's cookie; `access` does not apply.
   */
  browserSession?: { credential: "none" | "cookie" };
  successStatus: 200 | 201 | 202 | 204;
  errors: readonly ErrorCode[];
  paginated: boolean;
  effect: OperationEffect;
  /**
   * Text the database cannot store (U+0000, unpaired surrogates): refused as `validation_failed`, or,
   * where losing the whole request would be worse than one odd character (telemetry), taken and stored
   * with U+FFFD in its place by the service.
   */
  unstorableText: "refuse" | "replace";
}

/** What a service receives for an operation: its parsed params, query, body and headers. */
export interface OperationInput<O extends Operation> {
  params: z.output<O["params"]>;
  query: z.output<O["query"]>;
  body: O["body"] extends z.ZodType ? z.output<O["body"]> : undefined;
  headers: O["headers"] extends z.ZodType ? z.output<O["headers"]> : undefined;
}

export type OperationOutput<O extends Operation> = O["response"] extends z.ZodType
  ? z.output<O["response"]>
  : null;

/** Errors every authenticated operation can return, whatever it does. */
export const commonErrors = [
  "validation_failed",
  "unauthenticated",
  "forbidden",
  "rate_limited",
  "service_unavailable",
  "upstream_timeout",
] as const satisfies readonly ErrorCode[];
