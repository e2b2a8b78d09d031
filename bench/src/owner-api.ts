import type { Target } from "@svc/testing/platform";

/**
 * A JSON call to the platform with its owner's key, for a benchmark's set-up and timed requests: the
 * answer's body, or an error naming the request and the platform's answer.
 */
export function ownerApi(platform: Pick<Target, "baseUrl" | "ownerKey">) {
  const owner = { authorization: `Bearer ${platform.ownerKey}` };
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${platform.baseUrl}${path}`, {
      method,
      headers: { ...owner, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
}

/** Seconds since `started` (a `process.hrtime.bigint()`). */
export const secondsSince = (started: bigint): number => Number(process.hrtime.bigint() - started) / 1e9;

/** The middle value (the upper one of an even count). */
export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[values.length >> 1] as number;
