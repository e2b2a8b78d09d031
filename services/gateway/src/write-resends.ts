import { type Bus, type BusReply, type BusRequest, outcomeUnknown } from "@svc/bus";
import { gatewayIdempotencyKey, type Operation, type RequestContext } from "@svc/contracts";

/** When the gateway gives up on a service that took a write, and for how long it sends the write again. */
export interface ResendPolicy {
  /**
   * How long the service that took a write may say nothing (neither answer nor sign of work) before
   * the gateway takes it for dead and sends the write again (`RequestOptions.silenceMs`).
   */
  silenceMs: number;
  /** How long after the first try whose outcome is unknown the gateway goes on trying. */
  resendForMs: number;
}

export const defaultResendPolicy: ResendPolicy = { silenceMs: 750, resendForMs: 600 };

/** The pause before the next try, after one that reached no service: a replica or the bus coming back. */
const PAUSE_MS = 100;

/**
 * The writes the gateway sends again when the service that took them stops answering: the
 * dataset-writer's, each of which stores its idempotency key with its change, in one transaction, so
 * that the same request sent twice is applied once (docs/decisions/0033).
 */
export const resendsWrite = (op: Operation): boolean =>
  !op.effect.readOnly && op.upload === undefined && op.subject.startsWith("svc.v1.datasets.");

/**
 * The context a write is sent with: the client's Idempotency-Key, or one of the gateway's own, which
 * no client key can equal, so that every try of this request is the same request to the service.
 */
export function withIdempotencyKey(context: RequestContext): RequestContext {
  return context.idempotencyKey === undefined
    ? { ...context, idempotencyKey: gatewayIdempotencyKey() }
    : context;
}

/**
 * Sends a write, and sends it again, with the same key, when whether it was applied is unknown: the
 * service that took it went silent, or the connection dropped with it on its way. The queue group
 * gives the next try to a replica that answers; one that finds the first try committed answers with
 * the first try's answer. Each later try is marked a `resend`, which a writer does not refuse for a
 * backlog. A try that reached no service is tried again too once an earlier one may have been
 * applied, for only an answer can say whether it was. When `resendForMs` passes with no answer, or
 * the request's timeout does, the answer is `outcome_unknown`: never a plain `service_unavailable`,
 * which says that nothing was written; `onUnknown` then hears how each try ended.
 */
export async function requestWrite(
  bus: Bus,
  subject: string,
  request: BusRequest,
  timeoutMs: number,
  policy: ResendPolicy = defaultResendPolicy,
  onUnknown?: (tries: readonly string[]) => void,
): Promise<BusReply> {
  const deadline = Date.now() + timeoutMs;
  const tries: string[] = [];
  let unsureSince: number | undefined;
  for (;;) {
    const left = deadline - Date.now();
    const sent =
      unsureSince === undefined
        ? request
        : { ...request, context: { ...request.context, resend: true as const } };
    const reply = await bus.request(subject, sent, { timeoutMs: left, silenceMs: policy.silenceMs });
    if (reply.ok) return reply;
    const unknown = reply.outcome === "unknown";
    if (unknown) unsureSince ??= Date.now();
    // An answer from a service, or a refusal while nothing can have been written, is the answer.
    else if (unsureSince === undefined || reply.error.code !== "service_unavailable") return reply;
    tries.push(`${reply.error.code}: ${reply.error.message}`);
    const now = Date.now();
    if (now - unsureSince >= policy.resendForMs || now >= deadline) {
      onUnknown?.(tries);
      return outcomeUnknown(subject);
    }
    if (!unknown) await new Promise((resolve) => setTimeout(resolve, Math.min(PAUSE_MS, deadline - now)));
  }
}
