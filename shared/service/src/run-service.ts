import type { NatsBus } from "@svc/bus";
import { type PlatformService, platformServices, platformVersion } from "@svc/contracts";
// Types only: the modules themselves load after telemetry has started (see runService).
import type { DatabaseHandle } from "@svc/db";
import { createLogger, type Logger, onShutdown, startHealthServer, startTelemetry } from "@svc/telemetry";
import type { ServiceConfig } from "./service-config";

/** A service's own part: its configuration, and what it serves once its database and bus are there. */
export interface ServiceDefinition<Config extends ServiceConfig> {
  config: Config;
  /** Work that needs the database before the service takes requests (the bootstrap key of auth). */
  prepare?(deps: { config: Config; logger: Logger; database: DatabaseHandle }): Promise<void>;
  serve(deps: { config: Config; logger: Logger; database: DatabaseHandle; bus: NatsBus }): { stop(): void };
}

/**
 * The life of a service process, the same for each: telemetry first (so that its SDK patches `http`
 * and `pg` as they load, `define` imports the service's modules only when called), then the health
 * probes (alive, not ready), the database, the bus and the service's subscriptions, then its
 * announcement on the bus (pings, `nats micro ls`); ready once the database answers and the bus is
 * connected. On SIGTERM readiness turns false, the service stops answering pings, the subscriptions
 * drain (no new requests), the requests in flight finish, and everything closes in turn.
 */
export async function runService<Config extends ServiceConfig>(
  name: PlatformService,
  define: () => Promise<ServiceDefinition<Config>>,
): Promise<void> {
  const telemetry = await startTelemetry({ service: name });
  const { connectBus } = await import("@svc/bus");
  const { openDatabaseFromEnv } = await import("@svc/db");
  const { config, prepare, serve } = await define();
  const logger = createLogger({ service: name, level: config.LOG_LEVEL });
  const health = await startHealthServer(config, logger);
  const database = await openDatabaseFromEnv(config, logger);
  await prepare?.({ config, logger, database });
  const bus = await connectBus(config, name, logger);
  const service = serve({ config, logger, database, bus });
  const announcement = await bus.announce({
    name,
    version: platformVersion,
    description: platformServices[name],
  });
  health.ready(async () => {
    await database.ping();
    return bus.isConnected();
  });
  logger.info(`${name} ready`);

  onShutdown(
    logger,
    async () => {
      health.draining();
      await announcement.stop();
      service.stop();
      await bus.close();
      await database.close();
      await health.close();
      await telemetry.shutdown();
    },
    { timeoutMs: config.SVC_SHUTDOWN_TIMEOUT_MS },
  );
}
