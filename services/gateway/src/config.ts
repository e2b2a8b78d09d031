import { busEnvSchema } from "@svc/bus";
import { loadEnv, logEnvSchema, shutdownEnvSchema } from "@svc/telemetry";
import { z } from "zod";

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
  SVC_GATEWAY_MAX_IN_FLIGHT: z.coerce
    .number()
    .int()
    .min(1)
    .default(1024)
    .describe("Requests the gateway works on at once; beyond it, 503 with Retry-After at once"),
  SVC_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://svc.example.com" })
    .transform((url) => url.replace(/\/+$/, ""))
    .optional()
    .describe("The address clients use, for OAuth metadata; derived from each request's Host when unset"),
  SVC_TRUST_PROXY: z
    .enum(["true", "false"], { error: 'must be "true" or "false"' })
    .default("false")
    .transform((value) => value === "true")
    .describe(
      '"true" behind a proxy that sets X-Forwarded-Proto and X-Forwarded-Host: OAuth metadata then uses them when SVC_PUBLIC_URL is unset',
    ),
});
export type GatewayOptions = z.output<typeof gatewayOptionsSchema>;

export const listenEnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("127.0.0.1"),
});

export const configSchema = gatewayOptionsSchema
  .extend(listenEnvSchema.shape)
  .extend(busEnvSchema.shape)
  .extend(logEnvSchema.shape)
  .extend(shutdownEnvSchema.shape);

export const loadConfig = () => loadEnv(configSchema);
