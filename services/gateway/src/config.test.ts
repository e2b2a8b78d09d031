import { loadEnv } from "@svc/telemetry";
import { describe, expect, it } from "vitest";
import { configSchema, oidcSettingsOf, rateLimitsOf } from "./config";

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

  describe("single sign-on", () => {
    const oidc = {
      SVC_OIDC_ISSUER: "https://login.example.com/tenant",
      SVC_OIDC_CLIENT_ID: "svc",
      SVC_OIDC_CLIENT_SECRET: "s3cret",
    };

    it("is off without its variables, and on with all three, named after the issuer's host by default", () => {
      expect(oidcSettingsOf(load({}))).toBeUndefined();
      expect(oidcSettingsOf(load(oidc))).toEqual({
        issuer: new URL("https://login.example.com/tenant"),
        clientId: "svc",
        clientSecret: "s3cret",
        name: "login.example.com",
      });
      expect(oidcSettingsOf(load({ ...oidc, SVC_OIDC_NAME: " Acme Login " }))?.name).toBe("Acme Login");
    });

    it.each([
      ["not a URL", "login.example.com", "must be the identity provider's issuer URL"],
      ["another scheme", "ftp://login.example.com", "must be the identity provider's issuer URL"],
      ["plain http off loopback", "http://login.example.com", "must be an https URL"],
    ])("refuses an issuer that is %s, naming SVC_OIDC_ISSUER", (_what, issuer, message) => {
      expect(() => load({ ...oidc, SVC_OIDC_ISSUER: issuer })).toThrow(`  SVC_OIDC_ISSUER: ${message}`);
    });

    it("takes plain http on a loopback address, for a provider run for tests", () => {
      for (const issuer of ["http://127.0.0.1:4000", "http://localhost:4000/oidc", "http://[::1]:4000"]) {
        expect(load({ ...oidc, SVC_OIDC_ISSUER: issuer }).SVC_OIDC_ISSUER).toBe(issuer);
      }
    });

    it("refuses one or two of the three variables, naming each one missing", () => {
      expect(() => load({ SVC_OIDC_ISSUER: oidc.SVC_OIDC_ISSUER })).toThrow(
        "  SVC_OIDC_CLIENT_ID: must be set with SVC_OIDC_ISSUER: single sign-on needs SVC_OIDC_ISSUER, SVC_OIDC_CLIENT_ID and SVC_OIDC_CLIENT_SECRET, or none of them\n  SVC_OIDC_CLIENT_SECRET: must be set with SVC_OIDC_ISSUER",
      );
      expect(() => load({ SVC_OIDC_CLIENT_ID: "svc", SVC_OIDC_CLIENT_SECRET: "s" })).toThrow(
        "  SVC_OIDC_ISSUER: must be set with SVC_OIDC_CLIENT_ID and SVC_OIDC_CLIENT_SECRET",
      );
    });
  });
});
