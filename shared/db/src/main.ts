import { openDatabase } from "./connect";
import { migrateToLatest } from "./migrate";

/** `npm run migrate`: brings the database of DATABASE_URL (or the embedded one) up to date. */
const handle = await openDatabase({
  url: process.env.DATABASE_URL,
  dataDir: process.env.DATABASE_URL ? undefined : (process.env.SVC_DATA_DIR ?? ".svc-data/db"),
});
try {
  const applied = await migrateToLatest(handle.db);
  console.log(applied.length > 0 ? `applied: ${applied.join(", ")}` : "database schema is up to date");
} finally {
  await handle.close();
}
