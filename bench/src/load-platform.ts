import { type Database, openDatabase } from "@svc/db";
import { type Platform, type PlatformOptions, startPlatform } from "@svc/testing/platform";
import { type Kysely, sql } from "kysely";
import { seedDatasets } from "./seed";

/**
 * The distributed platform as the load benchmarks drive it: its database open beside it, to seed
 * datasets straight into the owner's project "bench" and to tidy up between phases.
 */
export interface LoadPlatform {
  platform: Platform;
  db: Kysely<Database>;
  /** `count` datasets of `rows` rows each in the project "bench" (see `seedDatasets`). */
  seed(idPrefix: string, slugPrefix: string, count: number, rows: number): Promise<void>;
  /**
   * VACUUM ANALYZE and CHECKPOINT. The write phases leave the database a backlog: dead row versions
   * that autovacuum would clean up and dirty pages that a checkpoint would write, hundreds of megabytes
   * of them after seeding. A latency phase starts once that is done, so that it times the platform
   * rather than PostgreSQL catching up on the benchmark's own earlier load.
   */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

export async function startLoadPlatform(options: PlatformOptions): Promise<LoadPlatform> {
  const platform = await startPlatform(options);
  const handle = await openDatabase({ url: platform.databaseUrl, poolSize: 2 }).catch(async (error) => {
    await platform.stop();
    throw error;
  });
  const db = handle.db;
  const stop = async () => {
    await handle.close();
    await platform.stop();
  };
  const project = await fetch(`${platform.baseUrl}/v1/projects`, {
    method: "POST",
    headers: { authorization: `Bearer ${platform.ownerKey}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "bench" }),
  })
    .then((r) => r.json() as Promise<{ id: string; organizationId: string }>)
    .catch(async (error) => {
      await stop();
      throw error;
    });
  return {
    platform,
    db,
    seed: (idPrefix, slugPrefix, count, rows) =>
      seedDatasets(db, {
        organizationId: project.organizationId,
        projectId: project.id,
        idPrefix,
        slugPrefix,
        count,
        rows,
      }),
    settle: async () => {
      await sql`VACUUM ANALYZE`.execute(db);
      await sql`CHECKPOINT`.execute(db);
    },
    stop,
  };
}
