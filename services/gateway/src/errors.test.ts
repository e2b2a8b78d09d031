import { DomainError, type ErrorCode } from "@svc/contracts";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { sendError } from "./errors";

/** The status and Retry-After a refusal of `code` is answered with. */
async function answerOf(code: ErrorCode, details?: Record<string, unknown>) {
  const app = Fastify();
  app.get("/", (request, reply) => sendError(request, reply, new DomainError(code, "refused", details)));
  try {
    const response = await app.inject({ url: "/" });
    return { status: response.statusCode, retryAfter: response.headers["retry-after"] };
  } finally {
    await app.close();
  }
}

describe("sendError", () => {
  it("says when to try again after every refusal a retry can cure, and only those", async () => {
    expect(await answerOf("service_unavailable")).toEqual({ status: 503, retryAfter: "1" });
    // The write may have been applied; sent again under its Idempotency-Key, it applies once.
    expect(await answerOf("outcome_unknown")).toEqual({ status: 503, retryAfter: "1" });
    expect(await answerOf("rate_limited", { retryAfterSeconds: 2.2 })).toEqual({
      status: 429,
      retryAfter: "3",
    });
    expect(await answerOf("not_found")).toEqual({ status: 404, retryAfter: undefined });
  });
});
