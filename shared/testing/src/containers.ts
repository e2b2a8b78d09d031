/**
 * On a developer's machine with Docker and neither `DATABASE_URL` nor `NATS_URL` set, the suites that
 * need PostgreSQL and NATS get them from throw-away containers (testcontainers), so `npm test` runs
 * everything there too. Where both variables are set (CI, or a developer's own servers) nothing is
 * started; where no container engine answers, nothing is started either and `realInfra()` reports
 * the skip loudly (or fails it, under `SVC_REQUIRE_INFRA=1`).
 */
const POSTGRES_IMAGE = "postgres:16-alpine";
const NATS_IMAGE = "nats:2.10-alpine";
/** How long to wait for a container engine to answer before deciding there is none. */
const ENGINE_PROBE_MS = 5000;

export type ContainersOutcome =
  | { started: false; reason: string }
  | { started: true; databaseUrl: string; natsUrl: string; stop(): Promise<void> };

export async function startInfraContainers(
  env: NodeJS.ProcessEnv = process.env,
  probeMs = ENGINE_PROBE_MS,
): Promise<ContainersOutcome> {
  if (env.DATABASE_URL && env.NATS_URL) {
    return { started: false, reason: "DATABASE_URL and NATS_URL are set" };
  }
  if (env.SVC_TESTCONTAINERS === "0") return { started: false, reason: "SVC_TESTCONTAINERS=0" };
  // Loaded only here: most runs never need it, and it is heavy.
  const { GenericContainer, Wait, getContainerRuntimeClient } = await import("testcontainers");
  const engine = await withTimeout(getContainerRuntimeClient(), probeMs).catch((error: unknown) => error);
  if (engine instanceof Error || engine === undefined) {
    return { started: false, reason: `no container engine answered (${describe(engine)})` };
  }
  const [postgres, nats] = await Promise.all([
    new GenericContainer(POSTGRES_IMAGE)
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: "trust" })
      .withExposedPorts(5432)
      // The image starts the server twice: once to initialise, then for real.
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start(),
    new GenericContainer(NATS_IMAGE)
      .withCommand(["-js"])
      .withExposedPorts(4222)
      .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
      .start(),
  ]);
  return {
    started: true,
    databaseUrl: `postgres://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/postgres`,
    natsUrl: `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`,
    stop: async () => {
      await Promise.all([postgres.stop(), nats.stop()]);
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.message.split("\n")[0] ?? "unknown error") : "unknown error";
}
