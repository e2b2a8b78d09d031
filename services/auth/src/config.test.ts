import { loadEnv } from "@svc/telemetry";
import { describe, expect, it } from "vitest";
import { oauthEnvSchema, oauthLifetimesOf } from "./config";
import { defaultOAuthLifetimes } from "./domain/oauth";

describe("the OAuth lifetimes of the configuration", () => {
  it("defaults to a one-minute code and a one-hour access token", () => {
    expect(oauthLifetimesOf(loadEnv(oauthEnvSchema, {}))).toEqual(defaultOAuthLifetimes);
    expect(defaultOAuthLifetimes).toMatchObject({ codeMs: 60_000, accessTokenMs: 3_600_000 });
  });

  it("reads SVC_OAUTH_CODE_TTL_MS and SVC_OAUTH_ACCESS_TOKEN_TTL_MS", () => {
    const config = loadEnv(oauthEnvSchema, {
      SVC_OAUTH_CODE_TTL_MS: "5000",
      SVC_OAUTH_ACCESS_TOKEN_TTL_MS: "2000",
    });
    expect(oauthLifetimesOf(config)).toEqual({
      ...defaultOAuthLifetimes,
      codeMs: 5_000,
      accessTokenMs: 2_000,
    });
  });

  it.each([
    ["SVC_OAUTH_ACCESS_TOKEN_TTL_MS", "999", "must be at least 1000 ms"],
    ["SVC_OAUTH_ACCESS_TOKEN_TTL_MS", "86400001", "must be at most 86400000 ms (a day)"],
    ["SVC_OAUTH_ACCESS_TOKEN_TTL_MS", "1500.5", "expected int"],
    ["SVC_OAUTH_CODE_TTL_MS", "600001", "must be at most 600000 ms (ten minutes)"],
    ["SVC_OAUTH_CODE_TTL_MS", "soon", "expected number"],
  ])("refuses %s=%s, naming the bound", (name, value, message) => {
    expect(() => loadEnv(oauthEnvSchema, { [name]: value })).toThrow(
      new RegExp(`${name}: .*${message.replace(/[()]/g, "\\$&")}`),
    );
  });
});
