import { randomBytes } from "node:crypto";
import { type Bus, InProcessBus, NatsBus } from "@svc/bus";
import { type DatabaseHandle, migrateToLatest, openDatabase } from "@svc/db";
import { createScratchDatabase } from "@svc/db/testing";
import { silentLogger } from "@svc/telemetry";
import { realInfra } from "./infra";
import { templateDump } from "./pglite-template";

/** A database and a bus for one test file: embedded (PGlite, in-process) or real (PostgreSQL, NATS). */
export interface Backend {
  name: "embedded" | "distributed";
  database: DatabaseHandle;
  bus: Bus;
  /** Opens another bus on the same broker, as a second process would (the same bus when embedded). */
  connectBus(): Promise<Bus>;
  databaseUrl?: string;
  natsUrl?: string;
  busPrefix?: string;
  close(): Promise<void>;
}

export type BackendName = Backend["name"];

/** The backends this machine can run: always embedded, and distributed when the infra is there. */
export function availableBackends(): BackendName[] {
  return realInfra() ? ["embedded", "distributed"] : ["embedded"];
}

export async function openBackend(name: BackendName): Promise<Backend> {
  if (name === "embedded") {
    // From the run's migrated template when there is one; migrating it again finds nothing to do.
    const database = await openDatabase({ loadDataDir: templateDump() });
    await migrateToLatest(database.db);
    const bus = new InProcessBus();
    return {
      name,
      database,
      bus,
      connectBus: async () => bus,
      close: async () => {
        await bus.close();
        await database.close();
      },
    };
  }
  const infra = realInfra();
  if (!infra) throw new Error("distributed backend needs DATABASE_URL and NATS_URL");
  const scratch = await createScratchDatabase(infra.databaseUrl);
  const database = await openDatabase({ url: scratch.url, poolSize: 20 });
  await migrateToLatest(database.db);
  const busPrefix = `t${randomBytes(5).toString("hex")}`;
  const connectBus = () =>
    NatsBus.connect({ url: infra.natsUrl, name: "test", prefix: busPrefix, logger: silentLogger() });
  const buses: Bus[] = [];
  const bus = await connectBus();
  buses.push(bus);
  return {
    name,
    database,
    bus,
    connectBus: async () => {
      const extra = await connectBus();
      buses.push(extra);
      return extra;
    },
    databaseUrl: scratch.url,
    natsUrl: infra.natsUrl,
    busPrefix,
    close: async () => {
      await Promise.allSettled(buses.map((b) => b.close()));
      await database.close();
      await scratch.drop();
    },
  };
}
