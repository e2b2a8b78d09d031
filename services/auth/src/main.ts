import { runService } from "@svc/bus/run-service";

await runService("auth", async () => {
  const { loadConfig, oauthLifetimesOf, sessionLifetimesOf } = await import("./config");
  const { registerAuth } = await import("./service");
  const { ensureBootstrap } = await import("./use-cases/ensure-bootstrap");
  return {
    config: loadConfig(),
    async prepare({ config, database, logger }) {
      if (!config.SVC_BOOTSTRAP_KEY) return;
      const { organizationId } = await ensureBootstrap(database.db, { token: config.SVC_BOOTSTRAP_KEY });
      logger.info({ organizationId }, "SVC_BOOTSTRAP_KEY is an owner key");
    },
    serve: ({ bus, config, database, logger }) =>
      registerAuth({
        bus,
        db: database.db,
        logger,
        oauthLifetimes: oauthLifetimesOf(config),
        sessionLifetimes: sessionLifetimesOf(config),
      }),
  };
});
