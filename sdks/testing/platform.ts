import { ensureBuilt, startEmbedded, type Target, targets } from "@svc/testing/platform";

/**
 * The SDKs' suites start the platform with the shared harness; a run of this project alone builds the
 * processes first when they are missing (`npm test` builds them before any project).
 */
export function platforms(): [Target["name"], () => Promise<Target>][] {
  return targets().map(([name, start]) => [
    name,
    () => {
      ensureBuilt();
      return start();
    },
  ]);
}

/** The embedded platform: every service in one process, on PGlite. */
export function startPlatform(): Promise<Target> {
  ensureBuilt();
  return startEmbedded();
}
