import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { type Database, migrateToLatest, pglitePool } from "@svc/db";
import { Kysely, PostgresDialect } from "kysely";

/**
 * An empty PGlite database takes PGlite a second or two to initialise, and a test run opens dozens
 * (every embedded platform, every service test's embedded backend). The global setup makes one, with
 * every migration applied, and names its folder in this variable, which the test workers and the
 * processes they start inherit: `db` is the data directory, `db.tar` the same as PGlite dumps it.
 */
const TEMPLATE_ENV = "SVC_TEST_PGLITE_TEMPLATE";

/** Makes the template and names it in this process's environment; the returned function removes it. */
export async function makePgliteTemplate(): Promise<() => void> {
  const folder = mkdtempSync(join(tmpdir(), "svc-pglite-template-"));
  const pglite = await PGlite.create({ dataDir: join(folder, "db"), extensions: { pg_trgm } });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pglitePool(pglite) }) });
  await migrateToLatest(db);
  const dump = await pglite.dumpDataDir("none");
  await db.destroy(); // closes PGlite
  writeFileSync(join(folder, "db.tar"), new Uint8Array(await dump.arrayBuffer()));
  process.env[TEMPLATE_ENV] = folder;
  return () => {
    delete process.env[TEMPLATE_ENV];
    rmSync(folder, { recursive: true, force: true });
  };
}

/** The template's data directory, to copy before a process opens it; undefined outside a test run. */
export function templateDataDir(): string | undefined {
  const folder = process.env[TEMPLATE_ENV];
  return folder && existsSync(join(folder, "db")) ? join(folder, "db") : undefined;
}

let read: { folder: string; dump: Blob } | undefined;

/** The template as PGlite's `loadDataDir` takes it (read once per process); undefined outside a test run. */
export function templateDump(): Blob | undefined {
  const folder = process.env[TEMPLATE_ENV];
  if (!folder || !existsSync(join(folder, "db.tar"))) return undefined;
  if (read?.folder !== folder) read = { folder, dump: new Blob([readFileSync(join(folder, "db.tar"))]) };
  return read.dump;
}
