import { runService } from "@svc/service/run-service";

await runService("auth", async () => {
  const { loadConfig, mailFromOf, oauthLifetimesOf, sessionLifetimesOf } = await import("./config");
  const { registerAuth } = await import("./service");
  const { smtpMailer } = await import("./mail/mailer");
  const { ensureBootstrap } = await import("./use-cases/ensure-bootstrap");
  return {
    config: loadConfig(),
    async prepare({ config, database, logger }) {
      if (!config.SVC_BOOTSTRAP_KEY) return;
      const { organizationId } = await ensureBootstrap(database.db, { token: config.SVC_BOOTSTRAP_KEY });
      logger.info({ organizationId }, "SVC_BOOTSTRAP_KEY is an owner key");
    },
    serve: ({ bus, config, database, logger }) => {
      const publicUrl = config.SVC_PUBLIC_URL;
      const mailer =
        config.SVC_SMTP_URL === undefined || publicUrl === undefined
          ? undefined
          : smtpMailer(config.SVC_SMTP_URL, mailFromOf(config, publicUrl));
      const auth = registerAuth({
        bus,
        db: database.db,
        logger,
        oauthLifetimes: oauthLifetimesOf(config),
        sessionLifetimes: sessionLifetimesOf(config),
        mailer,
        publicUrl: () => publicUrl,
      });
      return {
        stop: () => {
          auth.stop();
          mailer?.close();
        },
      };
    },
  };
});
