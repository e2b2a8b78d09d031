import { type Logger, withBackoff } from "@svc/telemetry";
import { z } from "zod";
import { NatsBus } from "./nats";
import { natsServersOf } from "./nats-servers";

const NATS_URL_HELP =
  "must be the address of the NATS server, e.g. nats://127.0.0.1:4222, or of several servers of one " +
  "cluster separated by commas, e.g. nats://10.0.0.1:4222,nats://10.0.0.2:4222,nats://10.0.0.3:4222";

/** A server address as nats.js takes it: `nats://host:port`, `tls://…`, `host:port` or `host`. */
const SERVER_ADDRESS = /^((nats|tls|ws|wss):\/\/)?([^\s:/@]+(:[^\s:/@]*)?@)?[^\s:/@,]+(:\d{1,5})?$/;

export const busEnvSchema = z.object({
  NATS_URL: z
    .string()
    .refine((value) => {
      const servers = natsServersOf(value);
      return servers.length > 0 && servers.every((server) => SERVER_ADDRESS.test(server));
    }, NATS_URL_HELP)
    .describe(
      "The NATS server, or the servers of a NATS cluster separated by commas: a service connects to any of them and moves to another when it goes away",
    ),
  SVC_BUS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, "must be letters, digits, '_' or '-'")
    .optional(),
  SVC_MAX_IN_FLIGHT: z.coerce.number().int().min(1).default(512),
  SVC_JETSTREAM_REPLICAS: z.coerce
    .number()
    .int()
    .min(1, "must be a whole number from 1 to 5")
    .max(5, "must be a whole number from 1 to 5")
    .default(1)
    .describe(
      "Copies JetStream keeps of the upload object store and the rate-limit buckets when it creates them: 1 on one NATS server, 3 on a cluster of three (one server may then be lost)",
    ),
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
