/**
 * Which real infrastructure the tests may use. `DATABASE_URL` and `NATS_URL` point at PostgreSQL and
 * NATS; without them the suites that need them are skipped, loudly, unless `SVC_REQUIRE_INFRA=1`
 * (CI) turns the skip into a failure.
 */
export interface Infra {
  databaseUrl: string;
  natsUrl: string;
}

export function realInfra(): Infra | undefined {
  const databaseUrl = process.env.DATABASE_URL;
  const natsUrl = process.env.NATS_URL;
  if (databaseUrl && natsUrl) return { databaseUrl, natsUrl };
  const missing = [!databaseUrl && "DATABASE_URL", !natsUrl && "NATS_URL"].filter(Boolean).join(" and ");
  if (process.env.SVC_REQUIRE_INFRA === "1") {
    throw new Error(
      `SVC_REQUIRE_INFRA=1 but ${missing} is not set: the real-infrastructure tests cannot run`,
    );
  }
  console.warn(`\n*** SKIPPING tests against real PostgreSQL and NATS: ${missing} not set ***\n`);
  return undefined;
}
