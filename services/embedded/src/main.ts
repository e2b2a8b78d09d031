import { existsSync } from "node:fs";
import { join } from "node:path";
import { createLogger, onShutdown, startTelemetry } from "@svc/telemetry";

// First, so that the SDK patches `http` and `pg` as they load: everything else is imported after it.
const telemetry = await startTelemetry({ service: "svc" });
const { ensureBootstrap, registerAuthService } = await import("@svc/auth");
const { InProcessBus } = await import("@svc/bus");
const { registerDatasetWriter } = await import("@svc/dataset-writer");
const { migrateToLatest, openDatabase } = await import("@svc/db");
const { buildGateway } = await import("@svc/gateway");
const { registerReader } = await import("@svc/reader");
const { registerTraceIngest } = await import("@svc/trace-ingest");
const { loadConfig } = await import("./config");
const { lockDataDir, writeBootstrapKey } = await import("./data-dir");

/** The whole platform in one process: PGlite under SVC_DATA_DIR and the in-process bus. */
const config = loadConfig();
const logger = createLogger({ service: "svc", level: config.LOG_LEVEL });
const unlock = lockDataDir(config.SVC_DATA_DIR);
const database = await openDatabase({ dataDir: join(config.SVC_DATA_DIR, "db") });
await migrateToLatest(database.db);

const bus = new InProcessBus();
const deps = { bus, db: database.db, logger };
const services = [
  registerAuthService(deps),
  registerDatasetWriter(deps),
  registerReader(deps),
  registerTraceIngest(deps),
];

const bootstrap = await ensureBootstrap(
  database.db,
  config.SVC_BOOTSTRAP_KEY ? { token: config.SVC_BOOTSTRAP_KEY } : {},
);
const gateway = buildGateway({ bus, logger, options: config });
const address = await gateway.app.listen({ port: config.PORT, host: config.HOST });

process.stdout.write(`svc is running on ${address} (data in ${config.SVC_DATA_DIR})\n${ownerKeyNote()}\n`);

function ownerKeyNote(): string {
  const keyFile = join(config.SVC_DATA_DIR, "bootstrap-key");
  if (bootstrap.createdToken) {
    writeBootstrapKey(config.SVC_DATA_DIR, bootstrap.createdToken);
    return `created an owner API key in ${keyFile}; use it with: export SVC_API_KEY=$(cat ${keyFile})`;
  }
  if (config.SVC_BOOTSTRAP_KEY) return "owner API key: the one in SVC_BOOTSTRAP_KEY";
  return existsSync(keyFile)
    ? `owner API key: in ${keyFile}`
    : "owner API key: the one created on first start";
}

onShutdown(logger, async () => {
  gateway.markDraining();
  await gateway.app.close();
  for (const service of services) service.stop();
  await bus.close();
  await database.close();
  unlock();
  await telemetry.shutdown();
});
