import { loadEnv } from "@svc/telemetry";
import { describe, expect, it } from "vitest";
import { busEnvSchema, natsServersOf } from "./index";

describe("the bus's configuration", () => {
  it("takes one NATS server, or a cluster's servers separated by commas", () => {
    expect(loadEnv(busEnvSchema, { NATS_URL: "nats://127.0.0.1:4222" }).NATS_URL).toBe(
      "nats://127.0.0.1:4222",
    );
    const cluster = "nats://10.0.0.1:4222, nats://10.0.0.2:4222,nats://user:secret@10.0.0.3:4222";
    expect(natsServersOf(loadEnv(busEnvSchema, { NATS_URL: cluster }).NATS_URL)).toEqual([
      "nats://10.0.0.1:4222",
      "nats://10.0.0.2:4222",
      "nats://user:secret@10.0.0.3:4222",
    ]);
    expect(natsServersOf("nats-0.nats:4222,nats-1.nats:4222")).toEqual([
      "nats-0.nats:4222",
      "nats-1.nats:4222",
    ]);
  });

  it("names what a bad NATS_URL should be, a list included", () => {
    for (const bad of ["", " , ", "nats://a:4222 nats://b:4222", "http://x/y"]) {
      expect(() => loadEnv(busEnvSchema, { NATS_URL: bad })).toThrow(
        /NATS_URL: must be the address of the NATS server, e\.g\. nats:\/\/127\.0\.0\.1:4222, or of several servers of one cluster separated by commas/,
      );
    }
  });

  it("keeps one copy of JetStream's buckets unless told how many, from 1 to 5", () => {
    const base = { NATS_URL: "nats://127.0.0.1:4222" };
    expect(loadEnv(busEnvSchema, base).SVC_JETSTREAM_REPLICAS).toBe(1);
    expect(loadEnv(busEnvSchema, { ...base, SVC_JETSTREAM_REPLICAS: "3" }).SVC_JETSTREAM_REPLICAS).toBe(3);
    expect(() => loadEnv(busEnvSchema, { ...base, SVC_JETSTREAM_REPLICAS: "7" })).toThrow(
      "SVC_JETSTREAM_REPLICAS: must be a whole number from 1 to 5",
    );
  });
});
