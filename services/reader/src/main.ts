import { runService } from "@svc/service/run-service";

await runService("reader", async () => {
  const { openDatabase } = await import("@svc/db");
  const { loadConfig } = await import("./config");
  const { ReadRouting } = await import("./read-routing");
  const { registerReader } = await import("./service");
  const config = loadConfig();
  let standby: Awaited<ReturnType<typeof openDatabase>> | undefined;
  return {
    config,
    // The standby is opened without migrations (it replays the primary's), and its pool connects only
    // when a read needs it: a standby that is down sends reads to the primary, it never stops the start.
    prepare: async ({ logger }) => {
      if (!config.DATABASE_READ_URL) return;
      standby = await openDatabase({
        url: config.DATABASE_READ_URL,
        poolSize: config.DB_READ_POOL_SIZE,
        preparedStatements: config.DB_PREPARED_STATEMENTS === "on",
        onError: (error) => logger.error({ err: error }, "read standby connection lost"),
      });
    },
    serve: ({ bus, database, logger }) => {
      const reads = standby
        ? new ReadRouting(database.db, standby.db, logger, { waitMs: config.SVC_READ_STANDBY_WAIT_MS })
        : undefined;
      const served = registerReader({
        bus,
        db: database.db,
        copyTo: database.copyTo,
        logger,
        ...(reads ? { reads } : {}),
      });
      return {
        stop: () => {
          served.stop();
          void standby?.close();
        },
      };
    },
  };
});
