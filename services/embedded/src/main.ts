import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createLogger, onShutdown, startTelemetry } from "@svc/telemetry";

// First, so that the SDK patches `http` and `pg` as they load: everything else is imported after it.
const telemetry = await startTelemetry({ service: "svc" });
const { ensureBootstrap, mailFromOf, oauthLifetimesOf, registerAuth, sessionLifetimesOf, smtpMailer } =
  await import("@svc/auth");
const { DirectoryUploadStore, InProcessBus, callSubject } = await import("@svc/bus");
const { issuedSignInCodeSchema, platformServices, platformVersion, subjects } = await import(
  "@svc/contracts"
);
const { registerDatasetWriter } = await import("@svc/dataset-writer");
const { registerExperiments } = await import("@svc/experiments");
const { migrateToLatest, openDatabase } = await import("@svc/db");
const { buildGateway } = await import("@svc/gateway");
const { registerReader } = await import("@svc/reader");
const { registerTraceIngest } = await import("@svc/trace-ingest");
const { loadConfig } = await import("./config");
const { bootstrapKeyFile, lockDataDir, readBootstrapKey, writeBootstrapKey } = await import("./data-dir");
const { listenFailure } = await import("./listen-failure");

/** Something the person starting svc can fix (a variable, a port): said plainly, without a stack trace. */
function refuse(message: string): never {
  process.stderr.write(`svc: ${message}\n`);
  process.exit(1);
}

/** The whole platform in one process: PGlite under SVC_DATA_DIR and the in-process bus. */
const config = (() => {
  try {
    return loadConfig();
  } catch (error) {
    return refuse((error as Error).message);
  }
})();
const logger = createLogger({ service: "svc", level: config.LOG_LEVEL });
const dataDir = config.SVC_DATA_DIR;
const unlock = (() => {
  try {
    return lockDataDir(dataDir);
  } catch (error) {
    return refuse((error as Error).message);
  }
})();
const database = await openDatabase({ dataDir: join(dataDir, "db") });
await migrateToLatest(database.db);

const bus = new InProcessBus();
// Uploaded files wait on disk beside the database until the writer has imported them.
const uploads = new DirectoryUploadStore(join(dataDir, "uploads"));
const deps = { bus, db: database.db, logger };
// Links in mail point at SVC_PUBLIC_URL, or at the address this process listens on once it does.
let publicUrl = config.SVC_PUBLIC_URL;
const mailer =
  config.SVC_SMTP_URL === undefined
    ? undefined
    : smtpMailer(config.SVC_SMTP_URL, mailFromOf(config, config.SVC_PUBLIC_URL ?? "http://localhost"));
const services = [
  registerAuth({
    ...deps,
    oauthLifetimes: oauthLifetimesOf(config),
    sessionLifetimes: sessionLifetimesOf(config),
    mailer,
    publicUrl: () => publicUrl,
  }),
  registerDatasetWriter({ ...deps, uploads }),
  registerReader({ ...deps, copyTo: database.copyTo }),
  registerTraceIngest(deps),
  registerExperiments(deps),
];
// Each answers the gateway's `/readyz` as it would over NATS.
for (const [name, description] of Object.entries(platformServices)) {
  await bus.announce({ name, version: platformVersion, description });
}

// A generated key is written before it is committed (see ensureBootstrap): whatever fails later, even
// listening, the one copy of it is already on disk.
const bootstrap = await ensureBootstrap(database.db, {
  token: config.SVC_BOOTSTRAP_KEY,
  saveCreatedToken: (token) => void writeBootstrapKey(dataDir, token),
});
process.stdout.write(`${ownerKeyNote()}\n`);

// From this file, not from the gateway's module: bundling moves that into a chunk one folder down.
const webRoot = fileURLToPath(new URL("../../../web/dist", import.meta.url));
const gateway = buildGateway({
  bus,
  logger,
  options: config,
  webRoot,
  uploads,
  // The sign-in page says where the first key is: in the data folder this process was given.
  ownerKeyFile: config.SVC_BOOTSTRAP_KEY ? undefined : bootstrapKeyFile(dataDir),
});

async function stop(): Promise<void> {
  gateway.markDraining();
  await gateway.app.close();
  for (const service of services) service.stop();
  mailer?.close();
  await bus.close();
  await database.close();
  unlock();
  await telemetry.shutdown();
}

const address = await gateway.app.listen({ port: config.PORT, host: config.HOST }).catch(async (error) => {
  const message = listenFailure(error, config);
  if (message === undefined) throw error;
  await stop();
  return refuse(message);
});
publicUrl ??= address;
process.stdout.write(`svc is running on ${address} (data in ${dataDir})\n`);
process.stdout.write(`${await signInNote(config.SVC_PUBLIC_URL ?? address)}\n`);

onShutdown(logger, stop);

/**
 * A link that signs the person who started svc in, once, within minutes: the way a notebook server
 * does, so that the first visit needs no copying of keys. Printed for them, never logged.
 */
async function signInNote(base: string): Promise<string> {
  const ownerKey = bootstrap.createdToken ?? config.SVC_BOOTSTRAP_KEY ?? readBootstrapKey(dataDir);
  if (ownerKey === undefined) return `open ${base} and sign in with an API key`;
  try {
    const { code } = issuedSignInCodeSchema.parse(
      await callSubject(bus, subjects.sessions.issueSignInCode, {
        context: { organizationId: null, role: null, actor: null, requestId: "start-up" },
        input: { apiKey: ownerKey },
      }),
    );
    return `open ${base}/sign-in#code=${code} to sign in (the link works once, for 15 minutes)`;
  } catch {
    // The saved key was revoked: the person signs in with a key of their own.
    return `open ${base} and sign in with an API key`;
  }
}

/** Where the owner key is; never the key itself, which must not end up in a terminal's scrollback or a log. */
function ownerKeyNote(): string {
  const keyFile = bootstrapKeyFile(dataDir);
  if (bootstrap.createdToken) {
    return `created an owner API key in ${keyFile}; use it with: export SVC_API_KEY=$(cat ${keyFile})`;
  }
  if (config.SVC_BOOTSTRAP_KEY) return "owner API key: the one in SVC_BOOTSTRAP_KEY";
  return existsSync(keyFile)
    ? `owner API key: in ${keyFile}`
    : "owner API key: the one created on first start";
}
