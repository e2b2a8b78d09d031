import { busEnvSchema } from "@svc/bus";
import { databaseEnvSchema } from "@svc/db";
import { healthEnvSchema, loadEnv, logEnvSchema, shutdownEnvSchema } from "@svc/telemetry";
import { z } from "zod";
import { defaultOAuthLifetimes, type OAuthLifetimes } from "./domain/oauth";

const bootstrapEnvSchema = z.object({
  SVC_BOOTSTRAP_KEY: z
    .string()
    .regex(
      /^svc_[\x21-\x7e]{1,508}$/,
      "must start with svc_ and be at most 512 printable characters, no spaces",
    )
    .optional()
    .describe("When set, this token is made an owner key of the oldest organisation (created if none)"),
});

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

/** How long OAuth codes and access tokens last; exported so that a process embedding auth can offer it too. */
export const oauthEnvSchema = z.object({
  SVC_OAUTH_CODE_TTL_MS: z.coerce
    .number()
    .int()
    .min(SECOND, "must be at least 1000 ms")
    // RFC 6749 §4.1.2: ten minutes at most.
    .max(10 * MINUTE, "must be at most 600000 ms (ten minutes)")
    .default(defaultOAuthLifetimes.codeMs)
    .describe("How long an authorization code may be exchanged, in milliseconds"),
  SVC_OAUTH_ACCESS_TOKEN_TTL_MS: z.coerce
    .number()
    .int()
    // expires_in is in whole seconds: under one it would say 0.
    .min(SECOND, "must be at least 1000 ms")
    .max(24 * 60 * MINUTE, "must be at most 86400000 ms (a day)")
    .default(defaultOAuthLifetimes.accessTokenMs)
    .describe("How long an OAuth access token works, in milliseconds; the refresh token brings the next"),
});

export const oauthLifetimesOf = (config: z.output<typeof oauthEnvSchema>): OAuthLifetimes => ({
  ...defaultOAuthLifetimes,
  codeMs: config.SVC_OAUTH_CODE_TTL_MS,
  accessTokenMs: config.SVC_OAUTH_ACCESS_TOKEN_TTL_MS,
});

export const configSchema = busEnvSchema
  .extend(databaseEnvSchema.shape)
  .extend(logEnvSchema.shape)
  .extend(healthEnvSchema.shape)
  .extend(shutdownEnvSchema.shape)
  .extend(bootstrapEnvSchema.shape)
  .extend(oauthEnvSchema.shape);

export const loadConfig = () => loadEnv(configSchema);
