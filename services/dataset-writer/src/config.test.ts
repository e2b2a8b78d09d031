import { loadEnv } from "@svc/telemetry";
import { describe, expect, it } from "vitest";
import { configSchema, groupCommitOptionsOf } from "./config";

const required = {
  DATABASE_URL: "postgres://postgres@127.0.0.1:5432/svc",
  NATS_URL: "nats://127.0.0.1:4222",
};

describe("the dataset-writer's configuration", () => {
  it("groups edits one transaction at a time, with up to 4 once one stalls for 50 ms, queued for 500 ms at most", () => {
    expect(groupCommitOptionsOf(loadEnv(configSchema, required))).toEqual({
      maxConcurrent: 4,
      stallMs: 50,
      maxQueueMs: 500,
    });
  });

  it("reads SVC_WRITER_MAX_TRANSACTIONS, SVC_WRITER_STALL_MS and SVC_WRITER_MAX_QUEUE_MS", () => {
    const config = loadEnv(configSchema, {
      ...required,
      SVC_WRITER_MAX_TRANSACTIONS: "1",
      SVC_WRITER_STALL_MS: "0",
      SVC_WRITER_MAX_QUEUE_MS: "2000",
    });
    expect(groupCommitOptionsOf(config)).toEqual({ maxConcurrent: 1, stallMs: 0, maxQueueMs: 2_000 });
  });

  it.each([
    ["SVC_WRITER_MAX_TRANSACTIONS", "0"],
    ["SVC_WRITER_MAX_TRANSACTIONS", "many"],
    ["SVC_WRITER_STALL_MS", "-1"],
    ["SVC_WRITER_STALL_MS", "60001"],
    ["SVC_WRITER_MAX_QUEUE_MS", "5"],
  ])("refuses %s=%s, naming the variable", (name, value) => {
    expect(() => loadEnv(configSchema, { ...required, [name]: value })).toThrow(new RegExp(`${name}: `));
  });
});
