import { harnessForSuite } from "@svc/testing";
import { type Platform, startPlatform } from "@svc/testing/platform";

// The shared harness (@svc/testing/platform) under the name the suites import it by.
export {
  acceptsConnections,
  entryOf,
  freePort,
  GENEROUS_RATE_LIMITS,
  type Platform,
  type PlatformOptions,
  type RunningProcess,
  root,
  type ServiceName,
  spawnNode,
  startPlatform,
  waitFor,
  waitReady,
} from "@svc/testing/platform";

/** How long a gateway of `startWithTwoGateways` remembers a verified credential: the most it may. */
export const AUTH_CACHE_MS = 5_000;

/**
 * The distributed platform with a second gateway, each remembering a verified credential for
 * AUTH_CACHE_MS: within that time only the revocation event can make a gateway forget a revoked key,
 * grant or session; `second` is the second gateway's address. Stops the platform again if the second
 * gateway does not start.
 */
export async function startWithTwoGateways(): Promise<Platform & { second: string }> {
  const platform = await startPlatform({ gatewayEnv: { SVC_AUTH_CACHE_MS: String(AUTH_CACHE_MS) } });
  try {
    return { ...platform, second: await platform.startGateway() };
  } catch (error) {
    await platform.stop();
    throw error;
  }
}

/**
 * What `start` starts (a platform, either way it runs), before a suite's tests, and stopped after them.
 * The object is returned at once and filled in by `beforeAll` (as `harnessForSuite` does): read its
 * fields in hooks and tests, not while the suite is declared.
 */
export function startedForSuite<T extends { stop(): Promise<void> }>(start: () => Promise<T>): T {
  return harnessForSuite(async () => {
    const started = await start();
    return { ...started, close: () => started.stop() };
  });
}
