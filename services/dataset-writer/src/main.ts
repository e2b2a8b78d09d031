import { createLogger, onShutdown, startHealthServer, startTelemetry } from "@svc/telemetry";

// First, so that the SDK patches `http` and `pg` as they load: everything else is imported after it.
const telemetry = await startTelemetry({ service: "dataset-writer" });
const { connectBus, NatsUploadStore } = await import("@svc/bus");
const { openDatabaseFromEnv } = await import("@svc/db");
const { loadConfig, rowEditorOptionsOf } = await import("./config");
const { registerDatasetWriter } = await import("./service");

const config = loadConfig();
const logger = createLogger({ service: "dataset-writer", level: config.LOG_LEVEL });
// Probes answer while the dependencies are awaited: alive, not ready.
const health = await startHealthServer(config, logger);
const database = await openDatabaseFromEnv(config, logger);
const bus = await connectBus(config, "dataset-writer", logger);
const service = registerDatasetWriter({
  bus,
  db: database.db,
  logger,
  rowEditor: rowEditorOptionsOf(config),
  // The same object store the gateways put uploads in (see the gateway's main).
  uploads: new NatsUploadStore(bus.connection, `${config.SVC_BUS_PREFIX ?? "svc"}_uploads`),
  importAbandonedMs: config.SVC_IMPORT_ABANDONED_MS,
  copyFrom: database.copyFrom,
});
health.ready(async () => {
  await database.ping();
  return bus.isConnected();
});
logger.info("dataset-writer ready");

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
