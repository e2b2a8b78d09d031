import { busEnvSchema } from "@svc/bus";
import { databaseEnvSchema } from "@svc/db";
import { healthEnvSchema, loadEnv, logEnvSchema, shutdownEnvSchema } from "@svc/telemetry";
import { z } from "zod";

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

export const configSchema = busEnvSchema
  .extend(databaseEnvSchema.shape)
  .extend(logEnvSchema.shape)
  .extend(healthEnvSchema.shape)
  .extend(shutdownEnvSchema.shape)
  .extend(bootstrapEnvSchema.shape);

export const loadConfig = () => loadEnv(configSchema);
