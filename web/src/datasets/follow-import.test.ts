import { SvcError } from "@svc/sdk";
import { describe, expect, it } from "vitest";
import { backoffMs, followImport, ImportKeys, isTransient } from "./follow-import";
import type { Import } from "./import-steps";

const job = (state: Import["state"], extra: Partial<Import> = {}): Import => ({
  importId: "imp1",
  state,
  format: "csv",
  mode: "insert",
  bytesRead: 0,
  rowsRead: 0,
  createdAt: "2026-01-01T00:00:00.000Z",
  finishedAt: null,
  ...extra,
});
const refusal = (status: number, code = `http_${status}`) => new SvcError({ status, code, message: code });

/** Answers in turn: a job, or an error to throw; records every wait asked for. */
function script(answers: (Import | Error)[]) {
  const waits: number[] = [];
  const unanswered: number[] = [];
  const seen: Import["state"][] = [];
  let calls = 0;
  const read = async () => {
    const next = answers[calls++];
    if (next === undefined) throw new Error("read more often than scripted");
    if (next instanceof Error) throw next;
    return next;
  };
  const options = {
    intervalMs: 400,
    maxBackoffMs: 10_000,
    signal: new AbortController().signal,
    onProgress: (progress: Import) => seen.push(progress.state),
    onUnanswered: (count: number) => unanswered.push(count),
    sleep: async (ms: number) => {
      waits.push(ms);
    },
  };
  return { read, options, waits, unanswered, seen, calls: () => calls };
}

describe("following an import to its end", () => {
  it("rides out refused progress checks and reports the import's success", async () => {
    const run = script([
      job("running", { rowsRead: 10 }),
      refusal(503, "service_unavailable"),
      refusal(503, "service_unavailable"),
      refusal(0, "connection_error"),
      refusal(429, "rate_limited"),
      job("succeeded", { rowsRead: 2000, rowsInserted: 2000, version: 1, versionId: "v1" }),
    ]);
    const done = await followImport(run.read, run.options);
    expect(done.rowsInserted).toBe(2000);
    expect(run.seen).toEqual(["running", "succeeded"]);
    // Longer waits while unanswered, the interval again while answered.
    expect(run.waits).toEqual([400, 800, 1600, 3200, 6400]);
    expect(run.unanswered).toEqual([1, 2, 3, 4, 0]);
  });

  it("throws the import's own failure, with its line", async () => {
    const run = script([
      refusal(503),
      job("failed", { error: { code: "bad_line", error: "Line 3 is bad", details: { line: 3 } } }),
    ]);
    const failure = await followImport(run.read, run.options).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SvcError);
    expect(failure).toMatchObject({ code: "bad_line", message: "Line 3 is bad" });
    expect((failure as SvcError).details).toEqual({ line: 3, importId: "imp1" });
  });

  it("stops at a refusal that is about the check itself", async () => {
    const run = script([refusal(404, "not_found"), job("succeeded")]);
    await expect(followImport(run.read, run.options)).rejects.toMatchObject({ code: "not_found" });
    expect(run.calls()).toBe(1);
  });

  it("stops when the person stops waiting", async () => {
    const stop = new AbortController();
    const run = script([refusal(503), refusal(503), job("succeeded")]);
    const following = followImport(run.read, {
      ...run.options,
      signal: stop.signal,
      sleep: async () => stop.abort(new DOMException("stopped", "AbortError")),
    });
    await expect(following).rejects.toMatchObject({ name: "AbortError" });
    expect(run.calls()).toBe(1);
  });

  it("waits no longer than the cap", () => {
    expect(backoffMs(1, 400, 10_000)).toBe(800);
    expect(backoffMs(20, 400, 10_000)).toBe(10_000);
  });

  it("takes 503, 504, 429, 408, 502 and no answer as transient, nothing else", () => {
    for (const status of [0, 408, 429, 502, 503, 504]) expect(isTransient(refusal(status))).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 413, 422, 500])
      expect(isTransient(refusal(status))).toBe(false);
    expect(isTransient(new Error("503"))).toBe(false);
  });
});

describe("an import's Idempotency-Key", () => {
  const file = { name: "rows.csv", size: 120, lastModified: 1 };
  const keys = () => {
    let n = 0;
    return new ImportKeys(() => `key-${++n}`);
  };

  it("is the same for the same file and settings until the import is known to have ended", () => {
    const chosen = keys();
    expect(chosen.keyFor(file, { mode: "insert" })).toBe("key-1");
    expect(chosen.keyFor({ ...file }, { mode: "insert" })).toBe("key-1");
    chosen.settled();
    expect(chosen.keyFor(file, { mode: "insert" })).toBe("key-2");
  });

  it("changes with the settings or the file", () => {
    const chosen = keys();
    expect(chosen.keyFor(file, { mode: "insert" })).toBe("key-1");
    expect(chosen.keyFor(file, { mode: "update" })).toBe("key-2");
    expect(chosen.keyFor({ ...file, size: 121 }, { mode: "update" })).toBe("key-3");
    expect(chosen.keyFor({ ...file, lastModified: 2 }, { mode: "update" })).toBe("key-4");
  });
});
