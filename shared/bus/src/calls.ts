import { DomainError, type Operation, type OperationOutput, type RequestContext } from "@svc/contracts";
import {
  type Bus,
  type BusReply,
  type BusRequest,
  busReplySchema,
  type ReplyStatus,
  type RequestOptions,
} from "./bus";

/** The raw input of an operation as it crosses the bus: strings from the URL, JSON from the body. */
export interface RawInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, unknown>;
}

/*
 * The calling side of the bus: a request to a subject or an operation, its answer checked, a domain
 * error it answered with thrown as one.
 */

/** Calls a subject and returns its data, or throws the DomainError it answered with. */
export async function callSubject(
  bus: Bus,
  subject: string,
  request: BusRequest,
  options?: RequestOptions,
): Promise<unknown> {
  return (await successOf(bus, subject, request, options)).data;
}

/** Calls a subject whose answer carries a body, and returns both; throws what it answered with. */
export async function callSubjectWithBody(
  bus: Bus,
  subject: string,
  request: BusRequest,
  options?: RequestOptions,
): Promise<{ data: unknown; body?: Uint8Array | undefined }> {
  return successOf(bus, subject, request, options);
}

async function successOf(
  bus: Bus,
  subject: string,
  request: BusRequest,
  options?: RequestOptions,
): Promise<{ data: unknown; status?: ReplyStatus | undefined; body?: Uint8Array | undefined }> {
  return checkedSuccess(await bus.request(subject, request, options));
}

function checkedSuccess(answer: BusReply): {
  data: unknown;
  status?: ReplyStatus | undefined;
  body?: Uint8Array | undefined;
} {
  const reply = busReplySchema.safeParse(answer);
  if (!reply.success) throw new DomainError("internal_error", "A service sent a malformed reply");
  if (!reply.data.ok) throw DomainError.fromData(reply.data.error);
  return reply.data;
}

/** Calls an operation with its raw input and validates the answer against the operation's response. */
export async function callOperation<O extends Operation>(
  bus: Bus,
  op: O,
  context: RequestContext,
  input: RawInput,
  options?: RequestOptions,
): Promise<OperationOutput<O>> {
  return (await callOperationWithStatus(bus, op, context, input, options)).data;
}

/**
 * Like `callOperation`, with the HTTP status of the success: the operation's `successStatus`, unless
 * the handler answered with another (`answeredWith`).
 */
export async function callOperationWithStatus<O extends Operation>(
  bus: Bus,
  op: O,
  context: RequestContext,
  input: RawInput,
  options?: RequestOptions,
): Promise<{ status: Operation["successStatus"]; data: OperationOutput<O> }> {
  return operationAnswer(op, await bus.request(op.subject, { context, input }, options));
}

/**
 * An operation's answer, from the bus's reply to it, however it was requested: its data checked
 * against the operation's response, or the DomainError it answered with, thrown.
 */
export function operationAnswer<O extends Operation>(
  op: O,
  answer: BusReply,
): { status: Operation["successStatus"]; data: OperationOutput<O> } {
  const reply = checkedSuccess(answer);
  const status = reply.status ?? op.successStatus;
  if (op.response === null) return { status, data: null as OperationOutput<O> };
  const parsed = op.response.safeParse(reply.data);
  if (!parsed.success) {
    throw new DomainError(
      "internal_error",
      `The ${op.operationId} service sent a reply that breaks its schema`,
    );
  }
  return { status, data: parsed.data as OperationOutput<O> };
}
