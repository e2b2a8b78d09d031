import { SvcError } from "../api";
import { sizeOf } from "../words";

/** An error in plain words, with the request id to quote, whatever failed. */
export function describeError(error: unknown): { message: string; requestId?: string | undefined } {
  if (error instanceof SvcError) {
    if (error.status === 0) {
      return { message: "The platform could not be reached. Check your connection; nothing was lost." };
    }
    if (error.code === "rate_limited") {
      return {
        message: `Too many requests right now; wait a moment and try again. (${error.message})`,
        requestId: error.requestId,
      };
    }
    if (error.code === "service_unavailable" || error.code === "upstream_timeout") {
      return {
        message: `The platform is busy or restarting; try again in a moment. (${error.message})`,
        requestId: error.requestId,
      };
    }
    if (error.code === "payload_too_large" && typeof error.details?.limit === "number") {
      return {
        message: `It is larger than the ${sizeOf(error.details.limit)} the platform accepts in one request (its SVC_BODY_LIMIT): make it smaller, or ask whoever runs the platform to raise the limit.`,
        requestId: error.requestId,
      };
    }
    return { message: error.message, requestId: error.requestId };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

/** `lead`, when given, comes first: what the failure meant for what the person asked (not saved…). */
export function ErrorMessage({ error, lead }: { error: unknown; lead?: string | undefined }) {
  const { message, requestId } = describeError(error);
  return (
    <div className="error-message" role="alert">
      <span>
        {lead ? <strong>{lead} </strong> : null}
        {message}
      </span>
      {requestId ? <span className="request-id">Request id {requestId}</span> : null}
    </div>
  );
}

/** What is wrong with what the person entered, said where they entered it; nothing when all is well. */
export function FieldProblem({ problem, id }: { problem: string | undefined; id?: string | undefined }) {
  if (!problem) return null;
  return (
    <p id={id} className="field-problem" role="alert">
      {problem}
    </p>
  );
}
