import { mailEnvSchema, oauthEnvSchema, sessionEnvSchema } from "@svc/auth";
import { API_KEY_PREFIX } from "@svc/contracts";
import { gatewayOptionsSchema, requireOidcTogether } from "@svc/gateway";
import { loadEnv, logEnvSchema } from "@svc/telemetry";
import { z } from "zod";

export const configSchema = gatewayOptionsSchema
  .extend(logEnvSchema.shape)
  .extend(oauthEnvSchema.shape)
  .extend(sessionEnvSchema.shape)
  .extend(mailEnvSchema.shape)
  .extend({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default("127.0.0.1"),
    SVC_DATA_DIR: z.string().min(1).default(".svc-data"),
    SVC_BOOTSTRAP_KEY: z
      .string()
      .regex(
        new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{16,200}$`),
        `must look like ${API_KEY_PREFIX}<at least 16 letters, digits, '_' or '-'>`,
      )
      .optional(),
  })
  .superRefine(requireOidcTogether);

export const loadConfig = () => loadEnv(configSchema);
