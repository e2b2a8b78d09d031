import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { currentSnapshots, STALE_MESSAGE, staleSnapshots, writeSnapshots } from "./index";
import { renderSnapshots, snapshotOf } from "./render";
import { snapshotFiles } from "./statements";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("the SQL snapshots", () => {
  it("are what the repository functions compile to now", async () => {
    const stale = staleSnapshots(root, await currentSnapshots());
    expect(stale, `${STALE_MESSAGE}\n${stale.join("\n")}`).toEqual([]);
  });

  it("are named after repository files that exist (a renamed file takes its snapshot's name along)", () => {
    const missing = snapshotFiles
      .map((file) => file.source)
      .filter((source) => !existsSync(join(root, source)));
    expect(missing, "a `source` in scripts/sql-snapshots/statements.ts names no file").toEqual([]);
  });
});

describe("a snapshot", () => {
  const byName = {
    findDatasetName: (db: Kysely<Database>) =>
      db.selectFrom("datasets").select("name").where("id", "=", "ds_1").execute(),
  };
  const bySlug = {
    findDatasetName: (db: Kysely<Database>) =>
      db.selectFrom("datasets").select("name").where("slug", "=", "tickets").execute(),
  };
  const fileOf = (module: typeof byName) =>
    snapshotOf({
      source: "services/example/src/repositories/datasets.ts",
      module,
      statements: { findDatasetName: [{ run: (db) => module.findDatasetName(db) }] },
    });

  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("names the function, lists its parameters and formats its SQL", async () => {
    const snapshots = await renderSnapshots([fileOf(byName)]);
    expect([...snapshots.keys()]).toEqual(["services/example/src/repositories/sql/datasets.sql"]);
    expect([...snapshots.values()][0]).toContain(
      [
        '-- findDatasetName\n-- $1 = "ds_1"',
        "select",
        '  "name"',
        "from",
        '  "datasets"',
        "where",
        '  "id" = $1;',
      ].join("\n"),
    );
  });

  it("goes stale when its query changes, and is written again", async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-sql-snapshots-"));
    writeSnapshots(dir, await renderSnapshots([fileOf(byName)]));
    const changed = await renderSnapshots([fileOf(bySlug)]);
    expect(staleSnapshots(dir, changed)).toEqual([
      "services/example/src/repositories/sql/datasets.sql differs from line 5",
    ]);
    expect(writeSnapshots(dir, changed)).toEqual(["services/example/src/repositories/sql/datasets.sql"]);
    expect(staleSnapshots(dir, changed)).toEqual([]);
  });

  it("left behind by a removed repository file is stale, and removed", async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-sql-snapshots-"));
    const snapshots = await renderSnapshots([fileOf(byName)]);
    writeSnapshots(dir, snapshots);
    writeFileSync(join(dir, "services/example/src/repositories/sql/gone.sql"), "select 1;\n");
    expect(staleSnapshots(dir, snapshots)).toEqual([
      "services/example/src/repositories/sql/gone.sql has no repository behind it",
    ]);
    writeSnapshots(dir, snapshots);
    expect(staleSnapshots(dir, snapshots)).toEqual([]);
  });

  it("must cover every function its repository file exports", async () => {
    const module = { ...byName, countDatasets: async () => 0 };
    const file = snapshotOf({
      source: "services/example/src/repositories/datasets.ts",
      module,
      statements: { findDatasetName: [{ run: (db) => module.findDatasetName(db) }] },
    });
    await expect(renderSnapshots([file])).rejects.toThrow(
      "services/example/src/repositories/datasets.ts exports countDatasets, which scripts/sql-snapshots/statements.ts does not list",
    );
  });
});
