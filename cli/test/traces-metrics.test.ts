import { startEmbedded, type Target } from "@svc/testing/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSvc } from "./run-svc";

/* `svc traces metrics`: the project's traces per bucket, a table for people and JSON for programs. */

let platform: Target;
let env: Record<string, string>;
let project = "";

async function api<T>(method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${platform.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${platform.ownerKey}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return (await response.json()) as T;
}

const span = (traceId: string, at: string, durationMs: number) => ({
  traceId,
  spanId: traceId.slice(0, 16),
  name: "agent",
  kind: 1,
  startTimeUnixNano: (BigInt(Date.parse(at)) * 1_000_000n).toString(),
  endTimeUnixNano: (BigInt(Date.parse(at) + durationMs) * 1_000_000n).toString(),
});

beforeAll(async () => {
  platform = await startEmbedded();
  env = { SVC_BASE_URL: platform.baseUrl, SVC_API_KEY: platform.ownerKey };
  project = (await api<{ slug: string }>("POST", "/v1/projects", { name: "Watched" }, {})).slug;
  const spans = [
    span("0af7651916cd43dd8448eb211c80319c", "2024-05-01T10:15:00Z", 200),
    span("1af7651916cd43dd8448eb211c80319c", "2024-05-01T12:30:00Z", 400),
  ];
  await api(
    "POST",
    "/v1/traces",
    { resourceSpans: [{ scopeSpans: [{ spans }] }] },
    { "x-svc-project": project },
  );
});
afterAll(() => platform?.stop());

const metrics = (format: string) =>
  runSvc(
    [
      "traces",
      "metrics",
      "--project-slug",
      project,
      "--from",
      "2024-05-01T10:00:00Z",
      "--to",
      "2024-05-01T13:00:00Z",
      "--bucket",
      "hour",
      "--format",
      format,
    ],
    { env },
  );

describe("svc traces metrics", () => {
  it("prints one line per bucket, the empty hour too", async () => {
    const result = await metrics("table");
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/time\s+group\s+otherGroups\s+traces\s+errors\s+latencyP50Ms/);
    expect(
      lines.filter((line) => line.startsWith("2024-05-01T")).map((line) => line.split(/\s+/)[0]),
    ).toEqual(["2024-05-01T10:00:00.000Z", "2024-05-01T11:00:00.000Z", "2024-05-01T12:00:00.000Z"]);
  });

  it("answers the series as JSON with --format json", async () => {
    const result = await metrics("json");
    expect(result.code, result.stderr).toBe(0);
    const { series } = JSON.parse(result.stdout) as { series: { time: string; traces: number }[] };
    expect(series.map((point) => [point.time, point.traces])).toEqual([
      ["2024-05-01T10:00:00.000Z", 1],
      ["2024-05-01T11:00:00.000Z", 0],
      ["2024-05-01T12:00:00.000Z", 1],
    ]);
  });
});
