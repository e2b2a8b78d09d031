import { SvcError } from "@svc/sdk";
import { describe, expect, it } from "vitest";
import { isUnavailable, observeAnswer, platformReachable } from "./connection";

const answer = (status: number) => new Response(null, { status });
const failure = (status: number, code = `http_${status}`) => new SvcError({ status, code, message: code });

describe("whether the platform is answering", () => {
  it("turns unreachable on a 503, a 504 or no answer, and back on any other answer", () => {
    expect(platformReachable()).toBe(true);
    observeAnswer(answer(503));
    expect(platformReachable()).toBe(false);
    observeAnswer(answer(200));
    expect(platformReachable()).toBe(true);
    observeAnswer(answer(504));
    expect(platformReachable()).toBe(false);
    // A refusal is an answer: the platform is there.
    observeAnswer(answer(412));
    expect(platformReachable()).toBe(true);
    observeAnswer("failed");
    expect(platformReachable()).toBe(false);
    observeAnswer(answer(500));
    expect(platformReachable()).toBe(true);
  });

  it("tells an error with no answer from one the platform gave", () => {
    expect(isUnavailable(failure(0, "connection_error"))).toBe(true);
    expect(isUnavailable(failure(0, "timeout"))).toBe(true);
    expect(isUnavailable(failure(503, "service_unavailable"))).toBe(true);
    expect(isUnavailable(failure(504, "upstream_timeout"))).toBe(true);
    expect(isUnavailable(failure(412, "version_mismatch"))).toBe(false);
    expect(isUnavailable(failure(429, "rate_limited"))).toBe(false);
    expect(isUnavailable(failure(500, "internal_error"))).toBe(false);
    expect(isUnavailable(new Error("not from the platform"))).toBe(false);
  });
});
