import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { startupSnapshot } from "node:v8";
import * as app from "./app";
import type { Io } from "./context";
import { start } from "./main";
import { seaBundles } from "./sea-bundles";

/**
 * Entry of the single executable built for the system that builds the release (linux-amd64 in CI).
 * Node runs this file once, while the executable is built, and keeps the heap it leaves as the
 * executable's start-up snapshot: a start finds the CLI loaded, its command tree built and the code
 * of a request and of a resource's help compiled, where sea.ts reads, compiles and runs app.cjs at
 * every start. A snapshot runs only on the Node binary that made it, so the other targets start from
 * sea.ts. The vendor bundles and the secret-store addon stay assets, loaded when first needed (the
 * release's build points their imports at sea-bundles.ts and keyring-sea.ts).
 */
startupSnapshot.setDeserializeMainFunction(() => {
  if (process.env.SVC_WRITE_CODE_CACHE === "1") process.once("exit", writeCodeCaches);
  start(async () => {
    if (process.env.SVC_DEBUG_CODE_CACHE === "1") {
      process.stderr.write("svc: app.cjs: in the start-up snapshot\n");
    }
    return app;
  });
});

/**
 * The vendor bundles' code caches, written beside the executable: V8 takes a code cache only in a
 * process started from the snapshot it was made in, so the release's build runs the executable
 * once with SVC_WRITE_CODE_CACHE=1 and carries what it writes (see scripts/release.mjs).
 */
function writeCodeCaches(): void {
  const dir = dirname(process.execPath);
  for (const [name, data] of seaBundles().caches()) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, `${name}.cache`), data);
  }
}

/**
 * A dry-run request and a resource's help, written to a stand-in for the process's streams. A
 * mutation would draw an Idempotency-Key here, which is why newIdempotencyKey keeps no random pool.
 */
async function warmUp(): Promise<void> {
  const discard = { write: () => true, isTTY: false, columns: 80 };
  const io: Io = { env: {}, stdout: discard, stderr: discard, stdinIsTTY: false, readStdin: () => "" };
  for (const argv of [
    ["projects", "list", "--dry-run"],
    ["datasets", "--help"],
  ]) {
    const exit = await app.run(argv, io);
    if (exit !== 0) throw new Error(`svc ${argv.join(" ")} exited ${exit} while the snapshot was made`);
  }
}

// A failure is an unhandled rejection, which ends the build of the snapshot with an error.
void warmUp();
