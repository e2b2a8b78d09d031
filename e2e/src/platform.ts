// The shared harness (@svc/testing/platform) under the name the suites import it by.
export {
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
