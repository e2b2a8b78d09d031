import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateToLatest, openDatabase } from "@svc/db";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePgliteTemplate, templateDataDir, templateDump } from "./pglite-template";

describe("the run's migrated PGlite template", () => {
  const runs = process.env.SVC_TEST_PGLITE_TEMPLATE;
  let remove: () => void;
  beforeAll(async () => {
    remove = await makePgliteTemplate();
  }, 60_000);
  afterAll(() => {
    const made = process.env.SVC_TEST_PGLITE_TEMPLATE;
    remove();
    expect(made && existsSync(made)).toBe(false);
    // The run's own template, which the global setup made, stays named for the other tests.
    if (runs !== undefined) process.env.SVC_TEST_PGLITE_TEMPLATE = runs;
  });

  /** What a database opened from the template holds: no migration left to apply, and no data. */
  async function expectMigratedAndEmpty(options: Parameters<typeof openDatabase>[0]) {
    const database = await openDatabase(options);
    try {
      expect(await migrateToLatest(database.db)).toEqual([]);
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM organizations`.execute(
        database.db,
      );
      expect(rows[0]?.n).toBe(0);
    } finally {
      await database.close();
    }
  }

  it("is named by the environment the test workers and their processes inherit", () => {
    expect(process.env.SVC_TEST_PGLITE_TEMPLATE).not.toBe(runs);
    expect(templateDataDir()).toBe(join(process.env.SVC_TEST_PGLITE_TEMPLATE ?? "", "db"));
    expect(templateDump()?.size).toBeGreaterThan(1_000_000);
  });

  it("opens in memory from its dump with every migration applied and nothing in it", async () => {
    await expectMigratedAndEmpty({ loadDataDir: templateDump() });
  }, 30_000);

  it("opens as a copy of its data directory, as an embedded platform's, the same way", async () => {
    const folder = mkdtempSync(join(tmpdir(), "svc-template-copy-"));
    try {
      cpSync(templateDataDir() ?? "", join(folder, "db"), { recursive: true });
      await expectMigratedAndEmpty({ dataDir: join(folder, "db") });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 30_000);

  it("is not there outside a test run, where databases start empty as before", () => {
    const made = process.env.SVC_TEST_PGLITE_TEMPLATE;
    delete process.env.SVC_TEST_PGLITE_TEMPLATE;
    try {
      expect(templateDataDir()).toBeUndefined();
      expect(templateDump()).toBeUndefined();
    } finally {
      process.env.SVC_TEST_PGLITE_TEMPLATE = made;
    }
  });
});
