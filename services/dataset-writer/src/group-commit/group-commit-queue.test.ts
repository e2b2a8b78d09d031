import { DomainError } from "@svc/contracts";
import { describe, expect, it } from "vitest";
import { type BatchRules, defaultGroupCommitOptions, GroupCommit } from "./group-commit";

/** Rules whose batches wait until released, recording what each batch held. */
function heldBatches() {
  const batches: string[][] = [];
  const releases: (() => void)[] = [];
  const rules: BatchRules<string, string> = {
    admitter: () => () => "take",
    apply: async (batch) => {
      batches.push(batch);
      await new Promise<void>((resolve) => releases.push(resolve));
      return batch.map((item) => ({ ok: true, result: `${item} applied` }));
    },
  };
  const releaseAll = () => {
    for (const release of releases.splice(0)) release();
  };
  return { rules, batches, releaseAll };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("group commit's bounded queue", () => {
  it("refuses a new item at once, as 503, once the oldest waiting one has waited past maxQueueMs", async () => {
    let clock = 0;
    const { rules, batches, releaseAll } = heldBatches();
    const commits = new GroupCommit(
      rules,
      { ...defaultGroupCommitOptions, maxConcurrent: 1, maxQueueMs: 100 },
      () => clock,
    );
    const first = commits.submit("a");
    const waiting = commits.submit("b");
    clock = 100;
    const inTime = commits.submit("c");
    clock = 150;
    const refused = commits.submit("d").catch((error: unknown) => error);
    const error = (await refused) as DomainError;
    expect(error).toBeInstanceOf(DomainError);
    expect(error.toData()).toEqual({
      code: "service_unavailable",
      message:
        "The writer is behind: 2 changes are waiting, the oldest for 150 ms; retry after the Retry-After delay",
    });
    // What was taken is applied: the refusal cost nothing but itself.
    releaseAll();
    await settle();
    releaseAll();
    expect(await Promise.all([first, waiting, inTime])).toEqual(["a applied", "b applied", "c applied"]);
    expect(batches).toEqual([["a"], ["b", "c"]]);
    // Once the queue is gone, items are taken again.
    const again = commits.submit("e");
    await settle();
    releaseAll();
    expect(await again).toBe("e applied");
  });

  it("refuses a new item once maxQueued are waiting", async () => {
    const { rules, releaseAll } = heldBatches();
    const commits = new GroupCommit(
      rules,
      { ...defaultGroupCommitOptions, maxConcurrent: 1, maxQueued: 2 },
      () => 0,
    );
    const taken = ["a", "b", "c"].map((item) => commits.submit(item));
    await expect(commits.submit("d")).rejects.toMatchObject({ code: "service_unavailable" });
    releaseAll();
    await settle();
    releaseAll();
    expect(await Promise.all(taken)).toEqual(["a applied", "b applied", "c applied"]);
  });

  it("takes a resend however far behind it is: refusing it would leave its outcome unknown", async () => {
    const { rules, releaseAll } = heldBatches();
    const commits = new GroupCommit(
      rules,
      { ...defaultGroupCommitOptions, maxConcurrent: 1, maxQueued: 2 },
      () => 0,
    );
    const taken = ["a", "b", "c"].map((item) => commits.submit(item));
    await expect(commits.submit("d")).rejects.toMatchObject({ code: "service_unavailable" });
    const resent = commits.submit("d", { resend: true });
    for (let i = 0; i < 3; i++) {
      releaseAll();
      await settle();
    }
    expect(await Promise.all([...taken, resent])).toEqual([
      "a applied",
      "b applied",
      "c applied",
      "d applied",
    ]);
  });

  it("drops, unapplied, an item whose deadline passed while it waited, and applies the rest", async () => {
    const { rules, batches, releaseAll } = heldBatches();
    const commits = new GroupCommit(rules, { ...defaultGroupCommitOptions, maxConcurrent: 1 });
    const first = commits.submit("a");
    const late = commits.submit("b", { deadline: Date.now() + 20 }).catch((error: unknown) => error);
    const awaited = commits.submit("c", { deadline: Date.now() + 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 40));
    releaseAll();
    expect(((await late) as DomainError).toData()).toEqual({
      code: "upstream_timeout",
      message:
        "The change waited past its deadline before the writer could start it, and was not applied; retry shortly",
    });
    await settle();
    releaseAll();
    expect(await Promise.all([first, awaited])).toEqual(["a applied", "c applied"]);
    expect(batches).toEqual([["a"], ["c"]]);
  });
});
