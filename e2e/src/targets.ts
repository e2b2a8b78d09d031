import { harnessForSuite } from "@svc/testing";
import type { Target } from "@svc/testing/platform";
import { makeDataset, makeProject } from "./factories";
import { type Client, client } from "./http";

// The ways the platform runs, from the shared harness (@svc/testing/platform) under the name the suites
// import it by; and a platform started for a suite with the organisation and project its tests use.
export {
  createOrganization,
  startDistributed,
  startEmbedded,
  type Target,
  targets,
} from "@svc/testing/platform";

/** A running platform as a suite's tests use it: an organisation's owner, and a project of its own. */
export interface ProjectOnTarget {
  target: Target;
  /** The organisation's owner key. */
  key: string;
  /** A client that sends `key`. */
  api: Client;
  /** The slug of the project made for the suite. */
  project: string;
}

/**
 * Starts a platform (one of `targets()`) and makes a project in the organisation it started with, or
 * in one signed up through the operator route (`newOrganization`), for a suite whose checks want an
 * organisation nothing else writes to. Stops the platform again if that fails.
 */
async function startWithProject(
  start: () => Promise<Target>,
  { newOrganization = false }: { newOrganization?: boolean } = {},
): Promise<ProjectOnTarget> {
  const target = await start();
  return stoppedOnFailure(target, async () => {
    const key = newOrganization ? await target.newOrganizationKey() : target.ownerKey;
    const api = client(target.baseUrl, key);
    return { target, key, api, project: await makeProject(api) };
  });
}

/**
 * `startWithProject`, and a dataset in the project with `columns` custom columns and rows r0…r{rows-1}
 * (as `makeDataset` makes them); `base` is its path.
 */
async function startWithDataset(
  start: () => Promise<Target>,
  { newOrganization = false, rows = 0, columns = 0 } = {},
): Promise<ProjectOnTarget & { base: string }> {
  const started = await startWithProject(start, { newOrganization });
  return stoppedOnFailure(started.target, async () => {
    const { base } = await makeDataset(started.api, started.project, { rows, columns });
    return { ...started, base };
  });
}

/**
 * `startWithProject` before a suite's tests, and the platform stopped after them. The object is
 * returned at once and filled in by `beforeAll` (as `harnessForSuite` does): read its fields in hooks
 * and tests, not while the suite is declared.
 */
export function projectForSuite(
  start: () => Promise<Target>,
  options: { newOrganization?: boolean } = {},
): ProjectOnTarget {
  return harnessForSuite(async () => stoppedAfterSuite(await startWithProject(start, options)));
}

/** `startWithDataset` before a suite's tests, as `projectForSuite` does `startWithProject`. */
export function datasetForSuite(
  start: () => Promise<Target>,
  options: { newOrganization?: boolean; rows?: number; columns?: number } = {},
): ProjectOnTarget & { base: string } {
  return harnessForSuite(async () => stoppedAfterSuite(await startWithDataset(start, options)));
}

/** What a suite started, closed after its tests by stopping the platform. */
const stoppedAfterSuite = <T extends ProjectOnTarget>(started: T) => ({
  ...started,
  close: () => started.target.stop(),
});

/** What `setUp` makes on a platform just started; the platform is stopped again if it fails. */
async function stoppedOnFailure<T>(target: Target, setUp: () => Promise<T>): Promise<T> {
  try {
    return await setUp();
  } catch (error) {
    await target.stop();
    throw error;
  }
}
