import { serviceConfigSchema } from "@svc/service/service-config";
import { loadEnv } from "@svc/telemetry";
import { z } from "zod";

/** What every service reads, and where its reads may go instead of the primary. */
export const configSchema = serviceConfigSchema.extend({
  // Empty is unset: a compose file passes the variable on whether the operator set it or not.
  DATABASE_READ_URL: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z
      .string()
      .regex(
        /^postgres(ql)?:\/\//,
        "must be a PostgreSQL URL of a hot standby, e.g. postgres://user@10.0.0.2:5432/svc",
      )
      .optional()
      .describe(
        "A hot standby of DATABASE_URL's database: dataset reads run there, except those that must see a version it has not replayed yet",
      ),
  ),
  DB_READ_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  SVC_READ_STANDBY_WAIT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(10_000, "must be at most 10000 ms")
    .default(500)
    .describe(
      "Milliseconds a read carrying X-Svc-Min-Version waits for the standby to have that version before it goes to the primary",
    ),
});

export const loadConfig = () => loadEnv(configSchema);
