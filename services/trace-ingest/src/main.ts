import { runService } from "@svc/service/run-service";

await runService("trace-ingest", async () => {
  const { loadConfig } = await import("./config");
  const { registerTraceIngest } = await import("./service");
  return {
    config: loadConfig(),
    serve: ({ bus, database, logger }) => registerTraceIngest({ bus, db: database.db, logger }),
  };
});
