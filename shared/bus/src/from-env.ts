import { type Logger, withBackoff } from "@svc/telemetry";
import { z } from "zod";
import { NatsBus } from "./nats";

export const busEnvSchema = z.object({
  NATS_URL: z.string().min(1, "must be the address of the NATS server, e.g. nats://127.0.0.1:4222"),
  SVC_BUS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, "must be letters, digits, '_' or '-'")
    .optional(),
  SVC_MAX_IN_FLIGHT: z.coerce.number().int().min(1).default(512),
});
export type BusEnv = z.output<typeof busEnvSchema>;

/** Connects to NATS, waiting with backoff until it answers. */
export function connectBus(env: BusEnv, name: string, logger: Logger): Promise<NatsBus> {
  return withBackoff("NATS", logger, () =>
    NatsBus.connect({
      url: env.NATS_URL,
      name,
      logger,
      maxInFlight: env.SVC_MAX_IN_FLIGHT,
      ...(env.SVC_BUS_PREFIX ? { prefix: env.SVC_BUS_PREFIX } : {}),
    }),
  );
}
