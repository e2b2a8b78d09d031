import { randomBytes } from "node:crypto";
import { createScratchDatabase } from "@svc/db/testing";
import { realInfra } from "@svc/testing";
import { afterEach, describe, expect, it } from "vitest";
import { killGroup, spawnWatched, type Watched } from "../embedded";
import { entryOf, freePort, root, waitFor } from "../platform";

const infra = realInfra();

describe.runIf(infra)("starting a distributed service", () => {
  let proc: Watched | undefined;
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    killGroup(proc);
    await drop?.();
    proc = undefined;
    drop = undefined;
  });

  it("`npm run start -w services/reader` starts the built service, which becomes ready and stops on SIGTERM", async () => {
    if (!infra) return;
    const scratch = await createScratchDatabase(infra.databaseUrl, "e2e");
    drop = scratch.drop;
    const healthPort = await freePort();
    proc = spawnWatched("npm", ["run", "start", "-w", "services/reader"], {
      cwd: root,
      env: {
        LOG_LEVEL: "info",
        DATABASE_URL: scratch.url,
        NATS_URL: infra.natsUrl,
        SVC_BUS_PREFIX: `start${randomBytes(4).toString("hex")}`,
        SVC_HEALTH_PORT: String(healthPort),
      },
      ownGroup: true,
    });

    await waitFor(
      "the reader's /readyz",
      async () => ((await fetch(`http://127.0.0.1:${healthPort}/readyz`)).status === 200 ? true : undefined),
      60_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${proc?.output()}`);
    });
    expect(proc.stdout.join("")).toContain('"msg":"reader ready"');

    // As a supervisor stops a process group: npm, its shell and the service all get the signal.
    process.kill(-(proc.child.pid as number), "SIGTERM");
    await proc.exited;
    await expect
      .poll(() => proc?.stdout.join("").includes('"msg":"stopped"'), { timeout: 10_000 })
      .toBe(true);
    await expect(fetch(`http://127.0.0.1:${healthPort}/healthz`)).rejects.toThrow();
  });

  it("a DATABASE_URL naming a database that does not exist ends the service at once, password unsaid", async () => {
    if (!infra) return;
    const password = `pw${randomBytes(8).toString("hex")}`;
    const url = new URL(infra.databaseUrl);
    url.password = password;
    url.pathname = "/svc_never_created";
    const started = Date.now();
    proc = spawnWatched(process.execPath, [entryOf("auth")], {
      env: { DATABASE_URL: url.toString(), NATS_URL: infra.natsUrl },
      ownGroup: true,
    });

    expect(await proc.exited).toBe(1);
    expect(Date.now() - started).toBeLessThan(15_000);
    const masked = new URL(url);
    masked.password = "***";
    expect(proc.output()).toContain(
      `DATABASE_URL (${masked}) cannot be used: database "svc_never_created" does not exist`,
    );
    expect(proc.output()).not.toContain(password);
    expect(proc.output()).not.toContain("waiting for PostgreSQL");
  });
});
