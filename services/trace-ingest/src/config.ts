import { busEnvSchema } from "@svc/bus";
import { databaseEnvSchema } from "@svc/db";
import { healthEnvSchema, loadEnv, logEnvSchema, shutdownEnvSchema } from "@svc/telemetry";

export const configSchema = busEnvSchema
  .extend(databaseEnvSchema.shape)
  .extend(logEnvSchema.shape)
  .extend(healthEnvSchema.shape)
  .extend(shutdownEnvSchema.shape);

export const loadConfig = () => loadEnv(configSchema);
