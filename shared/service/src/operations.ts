import {
  assertOperator,
  type Bus,
  type BusReply,
  type BusRequest,
  callerOf,
  commitOutcomeUnknown,
  deadlinePassed,
  dependencyUnavailable,
  parseOperationInput,
  pastDeadline,
  type RawInput,
  type ReplyStatus,
} from "@svc/bus";
import {
  type Caller,
  DomainError,
  internalErrorMessage,
  type Operation,
  type OperationInput,
  type OperationOutput,
  type RequestContext,
} from "@svc/contracts";
import { CommitOutcomeUnknown, isDependencyUnavailable } from "@svc/db";
import type { Logger } from "@svc/telemetry";

/**
 * A handler's answer given with another success status than its operation's own: a create that
 * found nothing to create answers 200 with what already exists rather than 201.
 */
export class AnsweredWith<T> {
  constructor(
    readonly status: ReplyStatus,
    readonly data: T,
  ) {}
}

export const answeredWith = <T>(status: ReplyStatus, data: T): AnsweredWith<T> =>
  new AnsweredWith(status, data);

/**
 * A handler's answer with bytes beside it, which travel as they are (see `BusReply`): an export's
 * piece, which would otherwise be written into a JSON string and parsed out of it again.
 */
export class WithBody<T> {
  constructor(
    readonly data: T,
    readonly body: Uint8Array,
  ) {}
}

/** What an operation's handler answers: its output, or its output with another success status. */
type Answer<O extends Operation> = Promise<OperationOutput<O> | AnsweredWith<OperationOutput<O>>>;

/**
 * Serves one operation of an organisation: authorises the caller (see `callerOf`), parses the input,
 * and hands both to the use-case, so that a handler never meets a request without a credential.
 */
export function serveOperation<O extends Operation>(
  bus: Bus,
  op: O,
  logger: Logger,
  handler: (input: OperationInput<O>, caller: Caller) => Answer<O>,
) {
  if (op.access === "operator")
    throw new Error(`${op.operationId} is the operator's: serve it with serveOperatorOperation`);
  return serveSubject(bus, op.subject, logger, async (request) => {
    const caller = callerOf(op, request.context);
    return handler(parseOperationInput(op, request.input as RawInput), caller);
  });
}

/**
 * Serves an operation that the operator token calls (the gateway checked the token): there is no
 * organisation, so the handler gets the raw context.
 */
export function serveOperatorOperation<O extends Operation>(
  bus: Bus,
  op: O,
  logger: Logger,
  handler: (input: OperationInput<O>, context: RequestContext) => Answer<O>,
) {
  if (op.access !== "operator")
    throw new Error(`${op.operationId} needs a caller: serve it with serveOperation`);
  return serveSubject(bus, op.subject, logger, async (request) => {
    assertOperator(request.context);
    return handler(parseOperationInput(op, request.input as RawInput), request.context);
  });
}

/**
 * Serves the subject of an operation whose input on the bus is not its HTTP input (a file the gateway
 * already stored, an export piece by piece): the caller is checked as `serveOperation` checks it, and
 * the handler parses the input.
 */
export function serveOperationSubject<O extends Operation>(
  bus: Bus,
  op: O,
  logger: Logger,
  handler: (input: unknown, caller: Caller) => Promise<unknown>,
) {
  return serveSubject(bus, op.subject, logger, async (request) =>
    handler(request.input, callerOf(op, request.context)),
  );
}

/**
 * Serves a subject with domain errors carried as data and anything unexpected logged, never leaked. A
 * dependency that cannot be reached (database down, connection cut) is a 503 the client may retry. A
 * request whose deadline passed while it waited (in the bus, or behind other work) is dropped unstarted:
 * its requester has already answered its client.
 */
export function serveSubject(
  bus: Bus,
  subject: string,
  logger: Logger,
  handler: (request: BusRequest) => Promise<unknown>,
) {
  return bus.serve(subject, async (request): Promise<BusReply> => {
    if (pastDeadline(request)) {
      logger.warn(
        { subject, requestId: request.context?.requestId },
        "deadline passed before the work started",
      );
      return deadlinePassed(subject);
    }
    try {
      const answer = await handler(request);
      if (answer instanceof AnsweredWith)
        return { ok: true, data: answer.data ?? null, status: answer.status };
      if (answer instanceof WithBody) return { ok: true, data: answer.data ?? null, body: answer.body };
      return { ok: true, data: answer ?? null };
    } catch (error) {
      if (error instanceof DomainError) return { ok: false, error: error.toData() };
      if (error instanceof CommitOutcomeUnknown) {
        logger.warn({ err: error, subject, requestId: request.context?.requestId }, "commit outcome unknown");
        return commitOutcomeUnknown(subject);
      }
      if (isDependencyUnavailable(error)) {
        logger.warn({ err: error, subject, requestId: request.context?.requestId }, "dependency unavailable");
        return dependencyUnavailable(subject);
      }
      logger.error({ err: error, subject, requestId: request.context?.requestId }, "unexpected error");
      return {
        ok: false,
        error: {
          code: "internal_error",
          message: internalErrorMessage(`request id ${request.context?.requestId ?? "unknown"}`),
        },
      };
    }
  });
}
