import { busEnvSchema } from "@svc/bus";
import { databaseEnvSchema } from "@svc/db";
import { healthEnvSchema, logEnvSchema, shutdownEnvSchema } from "@svc/telemetry";
import type { z } from "zod";

/**
 * What every service's configuration holds, whatever it adds: its bus, its database, its logging,
 * its health probes and how long it may take to shut down. A module of its own, loaded by the
 * service's config module: `run-service` takes only its type, so as not to load the database or
 * the bus before telemetry has started.
 */
export const serviceConfigSchema = busEnvSchema
  .extend(databaseEnvSchema.shape)
  .extend(logEnvSchema.shape)
  .extend(healthEnvSchema.shape)
  .extend(shutdownEnvSchema.shape);

export type ServiceConfig = z.output<typeof serviceConfigSchema>;
