import { busEnvSchema } from "@svc/bus";
import { loadEnv, logEnvSchema, shutdownEnvSchema } from "@svc/telemetry";
import { z } from "zod";
import type { RateLimits } from "./rate-limit";

const perSecond = (fallback: number, what: string) =>
  z.coerce
    .number()
    .positive("must be a number of requests per second above 0 (fractions allowed)")
    .default(fallback)
    .describe(`Sustained requests per second ${what}`);
const burst = (fallback: number, what: string) =>
  z.coerce
    .number()
    .int()
    .min(1, "must be a whole number of requests, at least 1")
    .default(fallback)
    .describe(`Requests ${what} allowed at once before the sustained rate applies`);

const perHour = (fallback: number, what: string) =>
  z.coerce
    .number()
    .int()
    .min(1, "must be a whole number of requests, at least 1")
    .default(fallback)
    .describe(
      `Sign-in links asked for by e-mail (POST /v1/session/email) in an hour ${what}; more is 429 and sends nothing`,
    );

/** An hourly allowance as a bucket: all of it at once, refilled evenly over the hour. */
const hourly = (count: number) => ({ perSecond: count / 3600, burst: count });

/** A setting that is on or off: exactly "true" or "false". */
const flag = z.stringbool({
  truthy: ["true"],
  falsy: ["false"],
  case: "sensitive",
  error: 'must be "true" or "false"',
});

/** Loopback addresses, where an identity provider may speak plain HTTP (a provider run for tests). */
const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** What the gateway itself needs, whether it runs alone or inside the embedded process. */
export const gatewayOptionsSchema = z.object({
  SVC_BODY_LIMIT: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  SVC_ADMIN_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  SVC_AUTH_CACHE_MS: z.coerce.number().int().min(0).max(5_000, "must be at most 5000 ms").default(1_000),
  SVC_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  SVC_WRITE_SILENCE_MS: z.coerce
    .number()
    .int()
    .min(300, "must be at least 300 ms: a service says it still works every 200 ms")
    .default(750)
    .describe(
      "Milliseconds a dataset-writer that took a write may say nothing before the gateway sends the write again, under the same idempotency key, to another replica",
    ),
  SVC_GATEWAY_MAX_IN_FLIGHT: z.coerce
    .number()
    .int()
    .min(1)
    .default(256)
    .describe(
      "Requests the gateway works on at once, file imports and exports apart; beyond it, 503 with Retry-After at once",
    ),
  SVC_GATEWAY_MAX_TRANSFERS: z.coerce
    .number()
    .int()
    .min(1)
    .default(32)
    .describe(
      "File imports and exports the gateway carries at once; beyond it, 503 with Retry-After at once",
    ),
  SVC_GATEWAY_MAX_QUEUE_MS: z.coerce
    .number()
    .int()
    .min(10)
    .default(500)
    .describe(
      "Milliseconds requests may queue (in the gateway or a service) before new ones get 503 with Retry-After",
    ),
  SVC_GATEWAY_STREAMS_PER_KEY: z.coerce
    .number()
    .int()
    .min(1)
    .default(20)
    .describe("Live-change streams one credential may hold open on this gateway; one more is 429"),
  SVC_GATEWAY_MAX_STREAMS: z.coerce
    .number()
    .int()
    .min(1)
    .default(10_000)
    .describe("Live-change streams this gateway holds open at once; one more is 503 with Retry-After"),
  SVC_GATEWAY_STREAM_KEEPALIVE_MS: z.coerce
    .number()
    .int()
    .min(10)
    .default(15_000)
    .describe(
      "Milliseconds between the comment lines that keep a quiet live-change stream open through proxies",
    ),
  SVC_GATEWAY_STREAM_BUFFER_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(256 * 1024)
    .describe("Bytes a live-change client may leave unread before it is disconnected (it reconnects)"),
  SVC_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://svc.example.com" })
    .transform((url) => url.replace(/\/+$/, ""))
    .optional()
    .describe("The address clients use, for OAuth metadata; derived from each request's Host when unset"),
  SVC_TRUST_PROXY: flag
    .default(false)
    .describe(
      '"true" behind a proxy that sets X-Forwarded-Proto and X-Forwarded-Host: OAuth metadata then uses them when SVC_PUBLIC_URL is unset',
    ),
  SVC_OIDC_ISSUER: z
    .url({
      protocol: /^https?$/,
      error: "must be the identity provider's issuer URL, such as https://login.example.com",
    })
    .refine(
      (url) => !URL.canParse(url) || url.startsWith("https:") || LOOPBACK.test(new URL(url).hostname),
      "must be an https URL (plain http only on a loopback address, such as a provider run for tests)",
    )
    .optional()
    .describe(
      "Single sign-on: the OpenID Connect provider's issuer (its discovery document is at /.well-known/openid-configuration); with SVC_OIDC_CLIENT_ID and SVC_OIDC_CLIENT_SECRET",
    ),
  SVC_OIDC_CLIENT_ID: z
    .string()
    .min(1, "must not be empty")
    .optional()
    .describe("Single sign-on: this platform's client id at the provider"),
  SVC_OIDC_CLIENT_SECRET: z
    .string()
    .min(1, "must not be empty")
    .optional()
    .describe("Single sign-on: this platform's client secret at the provider; never logged"),
  SVC_OIDC_NAME: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(40, "must be at most 40 characters")
    .optional()
    .describe(
      "The provider's name on the sign-in page (\"Sign in with …\"); the issuer's host name when unset",
    ),
  SVC_RATE_LIMIT_ENABLED: flag.default(true).describe('"false" turns every rate limit off'),
  SVC_RATE_LIMIT_KEY_PER_SECOND: perSecond(100, "per API key or OAuth grant"),
  SVC_RATE_LIMIT_KEY_BURST: burst(200, "per API key or OAuth grant"),
  SVC_RATE_LIMIT_ORG_PER_SECOND: perSecond(500, "per organisation, all its credentials together"),
  SVC_RATE_LIMIT_ORG_BURST: burst(1000, "per organisation"),
  SVC_RATE_LIMIT_OAUTH_PER_SECOND: perSecond(0.5, "per client address on /oauth/register and /oauth/token"),
  SVC_RATE_LIMIT_OAUTH_BURST: burst(30, "per client address on /oauth/register and /oauth/token"),
  SVC_RATE_LIMIT_EMAIL_PER_HOUR: perHour(5, "per e-mail address"),
  SVC_RATE_LIMIT_EMAIL_CLIENT_PER_HOUR: perHour(30, "per client address"),
});
export type GatewayOptions = z.output<typeof gatewayOptionsSchema>;

/** The limits the options describe; none at all when SVC_RATE_LIMIT_ENABLED is "false". */
export function rateLimitsOf(options: GatewayOptions): RateLimits {
  if (!options.SVC_RATE_LIMIT_ENABLED) {
    return { perKey: undefined, perOrganization: undefined, perClientIp: undefined };
  }
  return {
    perKey: { perSecond: options.SVC_RATE_LIMIT_KEY_PER_SECOND, burst: options.SVC_RATE_LIMIT_KEY_BURST },
    perOrganization: {
      perSecond: options.SVC_RATE_LIMIT_ORG_PER_SECOND,
      burst: options.SVC_RATE_LIMIT_ORG_BURST,
    },
    perClientIp: {
      perSecond: options.SVC_RATE_LIMIT_OAUTH_PER_SECOND,
      burst: options.SVC_RATE_LIMIT_OAUTH_BURST,
    },
    emailPerAddress: hourly(options.SVC_RATE_LIMIT_EMAIL_PER_HOUR),
    emailPerClient: hourly(options.SVC_RATE_LIMIT_EMAIL_CLIENT_PER_HOUR),
  };
}

const OIDC_VARIABLES = ["SVC_OIDC_ISSUER", "SVC_OIDC_CLIENT_ID", "SVC_OIDC_CLIENT_SECRET"] as const;

/**
 * Single sign-on needs its three variables together: one set alone is a mistake, named at start
 * rather than found at the first sign-in. Checked on the whole configuration of each process.
 */
export function requireOidcTogether(
  config: Partial<Record<(typeof OIDC_VARIABLES)[number], string | undefined>>,
  context: z.core.$RefinementCtx,
): void {
  const missing = OIDC_VARIABLES.filter((name) => config[name] === undefined);
  if (missing.length === 0 || missing.length === OIDC_VARIABLES.length) return;
  const given = OIDC_VARIABLES.filter((name) => config[name] !== undefined);
  for (const name of missing) {
    context.addIssue({
      code: "custom",
      path: [name],
      message: `must be set with ${given.join(" and ")}: single sign-on needs SVC_OIDC_ISSUER, SVC_OIDC_CLIENT_ID and SVC_OIDC_CLIENT_SECRET, or none of them`,
    });
  }
}

export interface OidcSettings {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  /** Shown on the sign-in page: "Sign in with <name>". */
  name: string;
}

/** The single sign-on settings, or undefined when it is not configured. */
export function oidcSettingsOf(options: GatewayOptions): OidcSettings | undefined {
  const {
    SVC_OIDC_ISSUER: issuer,
    SVC_OIDC_CLIENT_ID: clientId,
    SVC_OIDC_CLIENT_SECRET: clientSecret,
  } = options;
  if (issuer === undefined || clientId === undefined || clientSecret === undefined) return undefined;
  const url = new URL(issuer);
  return { issuer: url, clientId, clientSecret, name: options.SVC_OIDC_NAME ?? url.hostname };
}

export const listenEnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("127.0.0.1"),
});

export const configSchema = gatewayOptionsSchema
  .extend(listenEnvSchema.shape)
  .extend(busEnvSchema.shape)
  .extend(logEnvSchema.shape)
  .extend(shutdownEnvSchema.shape)
  .superRefine(requireOidcTogether);

export const loadConfig = () => loadEnv(configSchema);
