import { runService } from "@svc/service/run-service";

await runService("experiments", async () => {
  const { loadConfig } = await import("./config");
  const { registerExperiments } = await import("./service");
  return {
    config: loadConfig(),
    serve: ({ bus, database, logger }) => registerExperiments({ bus, db: database.db, logger }),
  };
});
