import { type ContainersOutcome, startInfraContainers } from "./containers";
import { findLocalInfra } from "./local-infra";
import { makePgliteTemplate } from "./pglite-template";
import { recordMissingPrograms } from "./programs";

/** The outcome of this run's one attempt, shared by every project's run of this setup. */
const ATTEMPT = Symbol.for("svc.testing.infra-containers");
type Holder = { [ATTEMPT]?: Promise<[ContainersOutcome, () => void]> };

/**
 * Vitest global setup: when the environment names neither PostgreSQL nor NATS, gives the run the
 * ones answering on their standard local ports, else throw-away containers where Docker is there. It
 * sets the variables in this process, which every test worker and every process a test starts
 * inherits. It also makes the run's migrated PGlite template (see pglite-template.ts), and starts the
 * record of programs the tests lack, which its teardown prints after the last test (see programs.ts).
 * Each project runs its global setup; only the first attempts anything, and only it cleans up.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const holder = globalThis as Holder;
  if (holder[ATTEMPT]) {
    await holder[ATTEMPT];
    return undefined;
  }
  const reportMissingPrograms = recordMissingPrograms();
  if (!process.env.DATABASE_URL && !process.env.NATS_URL && process.env.SVC_LOCAL_INFRA !== "0") {
    const local = await findLocalInfra();
    if (local.found) {
      process.env.DATABASE_URL = local.databaseUrl;
      process.env.NATS_URL = local.natsUrl;
      console.log(`\nPostgreSQL and NATS answer on their standard local ports: this run uses them\n`);
    }
  }
  holder[ATTEMPT] = Promise.all([startInfraContainers(), makePgliteTemplate()]);
  const [outcome, removeTemplate] = await holder[ATTEMPT];
  if (!outcome.started) {
    if (!process.env.DATABASE_URL || !process.env.NATS_URL) {
      console.warn(`\n*** no PostgreSQL and NATS containers: ${outcome.reason} ***\n`);
    }
    return async () => {
      removeTemplate();
      reportMissingPrograms();
    };
  }
  process.env.DATABASE_URL = outcome.databaseUrl;
  process.env.NATS_URL = outcome.natsUrl;
  console.log(`\nPostgreSQL and NATS started in containers for this run (${outcome.natsUrl})\n`);
  return async () => {
    removeTemplate();
    await outcome.stop();
    delete process.env.DATABASE_URL;
    delete process.env.NATS_URL;
    reportMissingPrograms();
  };
}
