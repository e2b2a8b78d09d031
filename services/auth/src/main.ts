import { createLogger, onShutdown, startHealthServer, startTelemetry } from "@svc/telemetry";

// First, so that the SDK patches `http` and `pg` as they load: everything else is imported after it.
const telemetry = await startTelemetry({ service: "auth" });
const { connectBus } = await import("@svc/bus");
const { openDatabaseFromEnv } = await import("@svc/db");
const { loadConfig, oauthLifetimesOf, sessionLifetimesOf } = await import("./config");
const { registerAuthService } = await import("./service");
const { ensureBootstrap } = await import("./use-cases/ensure-bootstrap");

const config = loadConfig();
const logger = createLogger({ service: "auth", level: config.LOG_LEVEL });
// Probes answer while the dependencies are awaited: alive, not ready.
const health = await startHealthServer(config, logger);
const database = await openDatabaseFromEnv(config, logger);
if (config.SVC_BOOTSTRAP_KEY) {
  const { organizationId } = await ensureBootstrap(database.db, { token: config.SVC_BOOTSTRAP_KEY });
  logger.info({ organizationId }, "SVC_BOOTSTRAP_KEY is an owner key");
}
const bus = await connectBus(config, "auth", logger);
const service = registerAuthService({
  bus,
  db: database.db,
  logger,
  oauthLifetimes: oauthLifetimesOf(config),
  sessionLifetimes: sessionLifetimesOf(config),
});
health.ready(async () => {
  await database.ping();
  return bus.isConnected();
});
logger.info("auth ready");

// Readiness turns false, the subscriptions drain (no new requests), the requests in flight finish.
onShutdown(
  logger,
  async () => {
    health.draining();
    service.stop();
    await bus.close();
    await database.close();
    await health.close();
    await telemetry.shutdown();
  },
  { timeoutMs: config.SVC_SHUTDOWN_TIMEOUT_MS },
);
