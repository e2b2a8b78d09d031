import { operations } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { describe, expect, test } from "vitest";
import { datasetForSuite, failure, readerSuite } from "../test-support";

describe.each(availableBackends())("diff between versions (%s)", (backendName) => {
  const reader = readerSuite(backendName);
  const dataset = datasetForSuite(reader, [
    {
      insert: [
        { id: "a", input: 1 },
        { id: "b", input: 2 },
        { id: "c", input: 3 },
      ],
    }, // v1
    { update: "a", patch: { input: 10 } }, // v2
    { delete: ["b"] }, // v3
    { insert: [{ id: "d", input: 4 }] }, // v4
    { update: "c", patch: { output: "x" } }, // v5
    { update: "c", patch: { output: null } }, // v6: c is back to what it was at v4
  ]);

  const diff = (query: Record<string, string>) =>
    reader.call(operations.diffDatasetVersions, { params: { datasetSlug: dataset.slug }, query });

  test("lists added, removed and modified rows cell by cell, ordered by row id", async () => {
    const page = await diff({ from: "1", to: "4" });
    expect(page.items).toEqual([
      {
        rowId: "a",
        change: "modified",
        before: expect.objectContaining({ input: 1 }),
        after: expect.objectContaining({ input: 10 }),
      },
      { rowId: "b", change: "removed", before: expect.objectContaining({ input: 2 }), after: null },
      { rowId: "d", change: "added", before: null, after: expect.objectContaining({ input: 4 }) },
    ]);
    expect(page.hasMore).toBe(false);
  });

  test("leaves out a row changed and changed back within the range", async () => {
    const page = await diff({ from: "4", to: "6" });
    expect(page.items).toEqual([]);
  });

  test("an adjacent pair shows exactly the change of the later version", async () => {
    const page = await diff({ from: "4", to: "5" });
    expect(page.items.map((i) => [i.rowId, i.change, i.after?.output])).toEqual([["c", "modified", "x"]]);
  });

  test("pages by row id with a cursor bound to the same from and to", async () => {
    // b was added and deleted within the range: no difference, and the pages stay full without it.
    const first = await diff({ from: "0", to: "6", limit: "2" });
    expect(first.items.map((i) => [i.rowId, i.change])).toEqual([
      ["a", "added"],
      ["c", "added"],
    ]);
    const second = await diff({ from: "0", to: "6", limit: "2", cursor: first.nextCursor ?? "" });
    expect(second.items.map((i) => i.rowId)).toEqual(["d"]);
    expect(second.hasMore).toBe(false);
    const mismatch = await failure(diff({ from: "1", to: "6", cursor: first.nextCursor ?? "" }));
    expect(mismatch.code).toBe("validation_failed");
  });

  test("refuses from greater than to, and versions that do not exist", async () => {
    const reversed = await failure(diff({ from: "5", to: "2" }));
    expect(reversed.code).toBe("validation_failed");
    expect(reversed.message).toContain("from must not be greater than to");
    expect((await failure(diff({ from: "1", to: "99" }))).code).toBe("not_found");
    expect((await failure(diff({ from: "x", to: "2" }))).code).toBe("validation_failed");
    expect((await failure(diff({ to: "2" }))).code).toBe("validation_failed");
    // An empty from or to once read as version 0.
    for (const query of [
      { from: "", to: "2" },
      { from: "0", to: "" },
    ]) {
      expect(await failure(diff(query))).toMatchObject({
        code: "validation_failed",
        details: {
          issues: [expect.objectContaining({ message: "must be an integer from 0 to 2147483647" })],
        },
      });
    }
  });
});
