import { runService } from "@svc/bus/run-service";

await runService("reader", async () => {
  const { loadConfig } = await import("./config");
  const { registerReader } = await import("./service");
  return {
    config: loadConfig(),
    serve: ({ bus, database, logger }) =>
      registerReader({ bus, db: database.db, copyTo: database.copyTo, logger }),
  };
});
