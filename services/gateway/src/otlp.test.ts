import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { type FakePlatform, fakePlatform } from "./testing/fake-platform";

describe("Content-Encoding: gzip", () => {
  let platform: FakePlatform | undefined;
  afterEach(async () => {
    await platform?.close();
    platform = undefined;
  });

  /** Lets a stream error that nobody listens for reach the process, as it would in production. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  const traces = (key: string, payload: Buffer | string) => ({
    method: "POST" as const,
    url: "/v1/traces",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      "content-encoding": "gzip",
      "x-svc-project": "demo",
    },
    payload,
  });

  it("unpacks a gzip body", async () => {
    platform = await fakePlatform();
    const response = await platform.gateway.app.inject(
      traces(platform.key(), gzipSync('{"resourceSpans":[]}')),
    );
    expect(response.statusCode).toBe(200);
  });

  it("refuses a body that is not gzip with 400", async () => {
    platform = await fakePlatform();
    const response = await platform.gateway.app.inject(traces(platform.key(), '{"resourceSpans":[]}'));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: "validation_failed" });
    await settle();
  });

  it("survives a broken gzip body that a GET never reads", async () => {
    platform = await fakePlatform();
    const response = await platform.gateway.app.inject({
      method: "GET",
      url: "/v1/account",
      headers: { authorization: `Bearer ${platform.key()}`, "content-encoding": "gzip" },
      payload: "this is not gzip",
    });
    expect(response.statusCode).toBe(200);
    await settle();
    expect((await platform.gateway.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
  });
});
