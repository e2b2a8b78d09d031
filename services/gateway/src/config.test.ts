import { loadEnv } from "@svc/telemetry";
import { describe, expect, it } from "vitest";
import { configSchema, rateLimitsOf } from "./config";

const base = { NATS_URL: "nats://127.0.0.1:4222" };
const load = (env: Record<string, string>) => loadEnv(configSchema, { ...base, ...env });

describe("gateway configuration", () => {
  it("caps SVC_AUTH_CACHE_MS at five seconds, naming the variable", () => {
    expect(load({ SVC_AUTH_CACHE_MS: "5000" }).SVC_AUTH_CACHE_MS).toBe(5_000);
    expect(() => load({ SVC_AUTH_CACHE_MS: "5001" })).toThrow(
      "Invalid configuration:\n  SVC_AUTH_CACHE_MS: must be at most 5000 ms",
    );
    expect(load({}).SVC_AUTH_CACHE_MS).toBe(1_000);
  });

  it("limits each credential and organisation by default, and OAuth clients per address", () => {
    expect(rateLimitsOf(load({}))).toEqual({
      perKey: { perSecond: 100, burst: 200 },
      perOrganization: { perSecond: 500, burst: 1_000 },
      perClientIp: { perSecond: 0.5, burst: 30 },
      emailPerAddress: { perSecond: 5 / 3600, burst: 5 },
      emailPerClient: { perSecond: 30 / 3600, burst: 30 },
    });
  });

  it("takes every limit from its variable, and turns them all off with SVC_RATE_LIMIT_ENABLED=false", () => {
    const env = {
      SVC_RATE_LIMIT_KEY_PER_SECOND: "2.5",
      SVC_RATE_LIMIT_KEY_BURST: "5",
      SVC_RATE_LIMIT_ORG_PER_SECOND: "10",
      SVC_RATE_LIMIT_ORG_BURST: "20",
      SVC_RATE_LIMIT_OAUTH_PER_SECOND: "0.1",
      SVC_RATE_LIMIT_OAUTH_BURST: "3",
      SVC_RATE_LIMIT_EMAIL_PER_HOUR: "2",
      SVC_RATE_LIMIT_EMAIL_CLIENT_PER_HOUR: "4",
    };
    expect(rateLimitsOf(load(env))).toEqual({
      perKey: { perSecond: 2.5, burst: 5 },
      perOrganization: { perSecond: 10, burst: 20 },
      perClientIp: { perSecond: 0.1, burst: 3 },
      emailPerAddress: { perSecond: 2 / 3600, burst: 2 },
      emailPerClient: { perSecond: 4 / 3600, burst: 4 },
    });
    expect(rateLimitsOf(load({ ...env, SVC_RATE_LIMIT_ENABLED: "false" }))).toEqual({
      perKey: undefined,
      perOrganization: undefined,
      perClientIp: undefined,
    });
  });

  it.each([
    ["SVC_RATE_LIMIT_ENABLED", "no", 'must be "true" or "false"'],
    ["SVC_RATE_LIMIT_KEY_PER_SECOND", "0", "must be a number of requests per second above 0"],
    ["SVC_RATE_LIMIT_ORG_BURST", "1.5", "expected int"],
    ["SVC_RATE_LIMIT_OAUTH_BURST", "0", "must be a whole number of requests, at least 1"],
  ])("refuses %s=%s at start, naming the variable", (name, value, message) => {
    expect(() => load({ [name]: value })).toThrow(`  ${name}: `);
    expect(() => load({ [name]: value })).toThrow(message);
  });
});
