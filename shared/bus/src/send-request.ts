import type { Context } from "@opentelemetry/api";
import { type BusReply, type BusRequest, DEFAULT_TIMEOUT_MS, type RequestOptions, withDeadline } from "./bus";
import type { BusTelemetry } from "./telemetry";

/** One request as an implementation carries it, once it has its deadline and its CLIENT span. */
export interface Delivery {
  subject: string;
  request: BusRequest;
  /** The context to inject into the message, so that the handler's span is the request span's child. */
  sendContext: Context;
  /** How long to wait for the reply: the time left until the request's deadline. */
  timeoutMs: number;
}

/**
 * `Bus.request` as every implementation answers it: the request takes its deadline (see `withDeadline`)
 * and goes out inside its CLIENT span; `deliver` carries it and waits for the reply.
 */
export function sendRequest(
  telemetry: BusTelemetry,
  subject: string,
  request: BusRequest,
  options: RequestOptions,
  deliver: (delivery: Delivery) => Promise<BusReply>,
): Promise<BusReply> {
  const sent = withDeadline(request, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  return telemetry.request(subject, sent.request, (sendContext) =>
    deliver({ subject, request: sent.request, sendContext, timeoutMs: sent.timeoutMs }),
  );
}
