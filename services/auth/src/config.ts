import { serviceConfigSchema } from "@svc/service/service-config";
import { loadEnv } from "@svc/telemetry";
import { z } from "zod";
import { defaultOAuthLifetimes, type OAuthLifetimes } from "./domain/oauth";
import { defaultSessionLifetimes, type SessionLifetimes } from "./domain/sessions";

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

/** How long browser sessions last; exported so that a process embedding auth can offer it too. */
export const sessionEnvSchema = z.object({
  SVC_SESSION_IDLE_MS: z.coerce
    .number()
    .int()
    .min(MINUTE, "must be at least 60000 ms (a minute)")
    .default(defaultSessionLifetimes.idleMs)
    .describe("A browser session unused for this long ends, in milliseconds (default 8 hours)"),
  SVC_SESSION_MAX_MS: z.coerce
    .number()
    .int()
    .min(MINUTE, "must be at least 60000 ms (a minute)")
    .max(30 * 24 * 60 * MINUTE, "must be at most 2592000000 ms (30 days)")
    .default(defaultSessionLifetimes.absoluteMs)
    .describe("A browser session ends this long after sign-in however much it is used (default 7 days)"),
});

export const sessionLifetimesOf = (config: z.output<typeof sessionEnvSchema>): SessionLifetimes => ({
  ...defaultSessionLifetimes,
  idleMs: config.SVC_SESSION_IDLE_MS,
  absoluteMs: config.SVC_SESSION_MAX_MS,
});

/** Mail of invitations and sign-in links; exported so that a process embedding auth can offer it too. */
export const mailEnvSchema = z.object({
  SVC_SMTP_URL: z
    .string()
    .regex(
      /^smtps?:\/\/[^\s]+$/,
      "must be an smtp:// or smtps:// URL, like smtps://user:password@mail.example.com",
    )
    .optional()
    .describe(
      "The SMTP server that sends invitations and sign-in links (smtp:// with STARTTLS when offered, smtps:// for TLS from the start; user:password@ when it wants them); unset, invitations answer their link for the inviter to pass on",
    ),
  SVC_SMTP_FROM: z
    .string()
    .regex(/^[^\r\n]+$/, "must be one line, like svc <svc@example.com>")
    .optional()
    .describe("The From of mail the platform sends (default: svc <no-reply@ the public address's host>)"),
});

/** From: as configured, or a no-reply address at the platform's own host. */
export const mailFromOf = (config: z.output<typeof mailEnvSchema>, publicUrl: string): string =>
  config.SVC_SMTP_FROM ?? `svc <no-reply@${new URL(publicUrl).hostname}>`;

export const configSchema = serviceConfigSchema
  .extend(bootstrapEnvSchema.shape)
  .extend(oauthEnvSchema.shape)
  .extend(sessionEnvSchema.shape)
  .extend(mailEnvSchema.shape)
  .extend({
    SVC_PUBLIC_URL: z
      .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
      .optional()
      .describe(
        "The address people reach the platform at; links in mail point there (needed with SVC_SMTP_URL)",
      ),
  })
  .refine((config) => config.SVC_SMTP_URL === undefined || config.SVC_PUBLIC_URL !== undefined, {
    path: ["SVC_PUBLIC_URL"],
    message:
      "must be set when SVC_SMTP_URL is: links in mail must point at the platform's own address, never at one a request names",
  });

export const loadConfig = () => loadEnv(configSchema);
