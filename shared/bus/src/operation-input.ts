import {
  type Caller,
  DomainError,
  findUnstorableInput,
  headerName,
  type Operation,
  type OperationInput,
  type RequestContext,
  roleAtLeast,
  validationError,
} from "@svc/contracts";
import type { z } from "zod";
import type { RawInput } from "./calls";

/** Parses an operation's raw input with its schemas; every problem becomes one `validation_failed`. */
export function parseOperationInput<O extends Operation>(op: O, raw: RawInput): OperationInput<O> {
  const issues: { part: string; issues: z.core.$ZodIssue[] }[] = [];
  const part = <S extends z.ZodType | null>(name: string, schema: S, value: unknown) => {
    if (schema === null) return undefined;
    // Before the schema: what cannot be stored is refused whatever the schema says, and a recursive
    // schema must never meet nesting deep enough to exhaust the stack.
    const unstorable = findUnstorableInput(value, { text: op.unstorableText === "refuse" });
    if (unstorable) {
      issues.push({ part: name, issues: [{ code: "custom", input: value, ...unstorable }] });
      return undefined;
    }
    const result = schema.safeParse(value);
    if (!result.success) {
      issues.push({ part: name, issues: result.error.issues });
      return undefined;
    }
    return result.data;
  };
  const input = {
    params: part("path", op.params, raw.params),
    query: part("query", op.query, raw.query),
    body: part("body", op.body, raw.body),
    headers: part("header", op.headers, raw.headers),
  };
  const first = issues[0];
  if (first) {
    const all = issues.flatMap((group) => group.issues.map((issue) => ({ group, issue })));
    throw validationError(
      all.map(({ group, issue }) => ({ ...issue, path: [group.part, ...pathIn(group.part, issue.path)] })),
      [],
      "Request",
    );
  }
  return input as OperationInput<O>;
}

/** A header's issue names the header the client sent (`header.If-Match`), not the input's key. */
function pathIn(part: string, path: readonly PropertyKey[]): PropertyKey[] {
  const [first, ...rest] = path;
  return part === "header" && typeof first === "string" ? [headerName(first), ...rest] : [...path];
}

/**
 * The one check of who may call an operation, whoever asks: the gateway before its bus request (so
 * that a refusal costs no service anything) and the service that serves the operation (so that no
 * path past the gateway skips it). Operator operations take the operator token, which belongs to no
 * organisation; every other operation takes a caller (see `callerOf`).
 */
export function authorise(op: Operation, context: RequestContext): void {
  if (op.access === "operator") assertOperator(context);
  else callerOf(op, context);
}

/** The operator token is the only credential without an organisation. */
export function assertOperator(context: RequestContext): void {
  if (context.organizationId !== null) {
    throw new DomainError("unauthenticated", "This route needs the operator token");
  }
}

/**
 * Who may call an operation of an organisation: a credential (an organisation, a role and who acts),
 * whose role reaches the operation's least role. Returns the caller, now known to be present.
 */
export function callerOf(op: Operation, context: RequestContext): Caller {
  const { organizationId, role, actor } = context;
  if (organizationId === null || role === null || actor === null) {
    throw new DomainError("unauthenticated", "This operation needs an API key");
  }
  if (op.access === "operator" || !roleAtLeast(role, op.access)) {
    throw new DomainError(
      "forbidden",
      `This key's role (${role}) may not do this; ${op.operationId} needs ${op.access} or higher`,
    );
  }
  return { ...context, organizationId, role, actor };
}
