import type { z } from "zod";
import { commonErrors, type Operation } from "../operation";
import { emptySchema } from "../schemas/common";

type Spec<P, Q, B, H, R> = Omit<
  Operation,
  "params" | "query" | "body" | "headers" | "response" | "errors" | "paginated"
> & {
  params?: P;
  query?: Q;
  body?: B;
  headers?: H;
  response: R;
  errors?: Operation["errors"];
  paginated?: boolean;
};

/** Declares an operation with the defaults every operation shares (no params, no query, common errors). */
export function defineOperation<
  R extends z.ZodType | null,
  P extends z.ZodType = typeof emptySchema,
  Q extends z.ZodType = typeof emptySchema,
  B extends z.ZodType | null = null,
  H extends z.ZodType | null = null,
>(spec: Spec<P, Q, B, H, R>) {
  return {
    ...spec,
    params: (spec.params ?? emptySchema) as P,
    query: (spec.query ?? emptySchema) as Q,
    body: (spec.body ?? null) as B,
    headers: (spec.headers ?? null) as H,
    response: spec.response,
    errors: [...commonErrors, ...(spec.errors ?? [])],
    paginated: spec.paginated ?? false,
  };
}
