import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { createLogger, onShutdown, startTelemetry } from "@svc/telemetry";

// First, so that the SDK patches `http` and `pg` as they load: everything else is imported after it.
const telemetry = await startTelemetry({ service: "gateway" });
const { connectBus, NatsUploadStore } = await import("@svc/bus");
const { buildGateway } = await import("./app");
const { loadConfig } = await import("./config");
const { KvBucketStore } = await import("./kv-bucket-store");

const config = loadConfig();
const logger = createLogger({ service: "gateway", level: config.LOG_LEVEL });
const bus = await connectBus(config, "gateway", logger);
// Every replica draws on the same buckets, kept beside the subjects of the same installation.
const rateLimitStore = new KvBucketStore(
  bus.connection,
  `${config.SVC_BUS_PREFIX ?? "svc"}_rate_limits`,
  Date.now,
  () => bus.isConnected(),
  config.SVC_JETSTREAM_REPLICAS,
);
// From this file, not from the module that serves it: bundling moves that into a chunk one folder down.
const webRoot = fileURLToPath(new URL("../../../web/dist", import.meta.url));
// Uploaded files wait for the writers in a JetStream object store, never in bus messages.
const uploads = new NatsUploadStore(
  bus.connection,
  `${config.SVC_BUS_PREFIX ?? "svc"}_uploads`,
  config.SVC_JETSTREAM_REPLICAS,
);
const gateway = buildGateway({ bus, logger, options: config, rateLimitStore, webRoot, uploads });
// A burst of new connections waits in the kernel, not refused for want of room in the accept queue.
await gateway.app.listen({ port: config.PORT, host: config.HOST, backlog: 4096 });

// Readiness turns false first and the gateway keeps serving for SVC_DRAIN_DELAY_MS, so that load
// balancers stop sending; then it stops accepting, finishes the requests in flight, and exits.
onShutdown(
  logger,
  async () => {
    gateway.markDraining();
    await delay(config.SVC_DRAIN_DELAY_MS);
    await gateway.app.close();
    await bus.close();
    await telemetry.shutdown();
  },
  { timeoutMs: config.SVC_SHUTDOWN_TIMEOUT_MS },
);
