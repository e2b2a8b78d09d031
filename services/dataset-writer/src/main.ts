import { runService } from "@svc/service/run-service";

await runService("dataset-writer", async () => {
  const { NatsUploadStore } = await import("@svc/bus");
  const { loadConfig, groupCommitOptionsOf } = await import("./config");
  const { registerDatasetWriter } = await import("./service");
  return {
    config: loadConfig(),
    serve: ({ bus, config, database, logger }) =>
      registerDatasetWriter({
        bus,
        db: database.db,
        logger,
        groupCommit: groupCommitOptionsOf(config),
        // The same object store the gateways put uploads in (see the gateway's main).
        uploads: new NatsUploadStore(
          bus.connection,
          `${config.SVC_BUS_PREFIX ?? "svc"}_uploads`,
          config.SVC_JETSTREAM_REPLICAS,
        ),
        importAbandonedMs: config.SVC_IMPORT_ABANDONED_MS,
        copyFrom: database.copyFrom,
      }),
  };
});
