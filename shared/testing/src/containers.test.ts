import { describe, expect, it } from "vitest";
import { startInfraContainers } from "./containers";

describe("infrastructure containers for tests", () => {
  it("starts nothing when DATABASE_URL and NATS_URL are both set", async () => {
    const outcome = await startInfraContainers({
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/postgres",
      NATS_URL: "nats://127.0.0.1:4222",
      DOCKER_HOST: "unix:///nonexistent/docker.sock",
    });
    expect(outcome).toEqual({ started: false, reason: "DATABASE_URL and NATS_URL are set" });
  });

  it("starts nothing when told not to", async () => {
    expect(await startInfraContainers({ SVC_TESTCONTAINERS: "0" })).toEqual({
      started: false,
      reason: "SVC_TESTCONTAINERS=0",
    });
  });

  it("gives up quickly, with the reason, when no container engine answers", async () => {
    const saved = process.env.DOCKER_HOST;
    // testcontainers reads the engine's address from the process environment.
    process.env.DOCKER_HOST = "unix:///nonexistent/docker.sock";
    const started = Date.now();
    try {
      const outcome = await startInfraContainers({}, 3000);
      expect(outcome.started).toBe(false);
      expect(outcome.started ? "" : outcome.reason).toMatch(/^no container engine answered \(.+\)$/);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      if (saved === undefined) delete process.env.DOCKER_HOST;
      else process.env.DOCKER_HOST = saved;
    }
  });
});
