import type { z } from "zod";
import {
  type BodyExample,
  commonErrors,
  type HttpMethod,
  type Operation,
  type OperationEffect,
} from "../operation";
import { emptySchema } from "../schemas/common";

type Spec<P, Q, B, H, R> = Omit<
  Operation,
  | "params"
  | "query"
  | "body"
  | "headers"
  | "bodyExamples"
  | "response"
  | "errors"
  | "paginated"
  | "effect"
  | "unstorableText"
> & {
  unstorableText?: Operation["unstorableText"];
  params?: P;
  query?: Q;
  body?: B;
  /** Typed by the body's schema, so that an example the operation would refuse does not compile. */
  bodyExamples?: Readonly<Record<string, BodyExample<B extends z.ZodType ? z.input<B> : never>>>;
  headers?: H;
  response: R;
  errors?: Operation["errors"];
  paginated?: boolean;
  /** A POST that only reads (a list whose filters travel in the body): it stores no idempotency key. */
  readOnly?: true;
  /** Where a write does not do what its method says by default (see `effectOf`). */
  effect?: Partial<Omit<OperationEffect, "readOnly">>;
};

/**
 * A write's effect by its method, as HTTP defines them: a POST adds something new at each call; a
 * PATCH or DELETE changes or removes what exists, and repeating it changes nothing more. An operation
 * that differs says so (an edit that makes a new dataset version at each call is not idempotent).
 */
function effectOf(
  method: HttpMethod,
  readOnly: boolean,
  declared: Partial<Omit<OperationEffect, "readOnly">> = {},
): OperationEffect {
  if (method === "GET" || readOnly) return { readOnly: true, destructive: false, idempotent: true };
  const byMethod =
    method === "POST" ? { destructive: false, idempotent: false } : { destructive: true, idempotent: true };
  return { readOnly: false, ...byMethod, ...declared };
}

/**
 * Declares an operation with the defaults every operation shares (no params, no query, common errors).
 * Every POST, PATCH and DELETE that changes something honours Idempotency-Key, so each can answer
 * `409 idempotency_key_reused`, and any of them `503 outcome_unknown`; those errors are declared here
 * once rather than in every operation.
 */
export function defineOperation<
  R extends z.ZodType | null,
  P extends z.ZodType = typeof emptySchema,
  Q extends z.ZodType = typeof emptySchema,
  B extends z.ZodType | null = null,
  H extends z.ZodType | null = null,
>(spec: Spec<P, Q, B, H, R>) {
  const { readOnly, effect, ...rest } = spec;
  const idempotent = spec.method !== "GET" && !readOnly && spec.browserSession === undefined;
  // Rate limits apply to an organisation's credentials; the operator token has none.
  const common =
    spec.access === "operator" ? commonErrors.filter((code) => code !== "rate_limited") : commonErrors;
  const errors: Operation["errors"] = [
    ...new Set([
      ...common,
      ...(spec.errors ?? []),
      // The gateway refuses a body over its limit, or one that is not JSON, before any operation runs.
      ...(spec.body ? (["payload_too_large", "unsupported_media_type"] as const) : []),
      // A write whose service stopped answering after it took the write: see docs/decisions/0033.
      ...(idempotent ? (["idempotency_key_reused", "outcome_unknown"] as const) : []),
    ]),
  ];
  return {
    ...rest,
    params: (spec.params ?? emptySchema) as P,
    query: (spec.query ?? emptySchema) as Q,
    body: (spec.body ?? null) as B,
    headers: (spec.headers ?? null) as H,
    response: spec.response,
    errors,
    paginated: spec.paginated ?? false,
    effect: effectOf(spec.method, readOnly === true, effect),
    unstorableText: spec.unstorableText ?? "refuse",
  };
}
