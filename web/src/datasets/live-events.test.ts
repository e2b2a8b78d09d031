import type { DatasetVersionEvent } from "@svc/sdk";
import { describe, expect, it } from "vitest";
import {
  changedUnderDraft,
  parseVersionEvent,
  reopenDelay,
  rowsToRefresh,
  withRowChanges,
  withVersion,
} from "./live-events";

/** Version 2 of a dataset: row r1 edited by an API key, but for `overrides`. */
const makeEvent = (overrides: Partial<DatasetVersionEvent> = {}): DatasetVersionEvent => ({
  version: 2,
  versionId: "v2",
  operation: "update",
  actor: { kind: "apiKey", id: "key1" },
  rowsInserted: 0,
  rowsUpdated: 1,
  rowsDeleted: 0,
  rowIds: ["r1"],
  rowIdsTruncated: false,
  createdAt: "2026-01-01T00:00:00.000Z",
  ...overrides,
});

const loaded =
  (...rowIds: string[]) =>
  (rowId: string) =>
    rowIds.includes(rowId);

describe("parseVersionEvent", () => {
  it("reads an event's data and refuses what is not one", () => {
    expect(parseVersionEvent(JSON.stringify(makeEvent()))).toEqual(makeEvent());
    expect(parseVersionEvent("not json")).toBeUndefined();
    expect(parseVersionEvent("null")).toBeUndefined();
    expect(parseVersionEvent(JSON.stringify({ version: "2", rowIds: [] }))).toBeUndefined();
    expect(parseVersionEvent(JSON.stringify({ version: 2 }))).toBeUndefined();
  });
});

describe("withVersion", () => {
  it("moves the dataset to a newer version and never back", () => {
    const dataset = { name: "Answers", version: 3 };
    expect(withVersion(dataset, 4)).toEqual({ name: "Answers", version: 4 });
    expect(withVersion(dataset, 3)).toBe(dataset);
    expect(withVersion(dataset, 2)).toBe(dataset);
    expect(withVersion(undefined, 4)).toBeUndefined();
  });
});

describe("rowsToRefresh", () => {
  it("reads the rows again when an edited row is loaded, and not when none is", () => {
    expect(rowsToRefresh(makeEvent({ rowIds: ["r1", "r9"] }), false, loaded("r9"))).toBe(true);
    expect(rowsToRefresh(makeEvent({ rowIds: ["r1"] }), false, loaded("r2"))).toBe(false);
  });

  it("reads the rows again when the list's rows change: added, deleted, more than named, or the columns", () => {
    const none = loaded();
    expect(rowsToRefresh(makeEvent({ rowsInserted: 1, rowsUpdated: 0 }), false, none)).toBe(true);
    expect(rowsToRefresh(makeEvent({ rowsDeleted: 1, rowsUpdated: 0 }), false, none)).toBe(true);
    expect(rowsToRefresh(makeEvent({ rowIdsTruncated: true }), false, none)).toBe(true);
    expect(rowsToRefresh(makeEvent({ rowIds: [], rowsUpdated: 0 }), false, none)).toBe(true);
  });

  it("leaves a pinned version's rows as they are", () => {
    expect(rowsToRefresh(makeEvent({ rowsInserted: 5, rowIdsTruncated: true }), true, loaded("r1"))).toBe(
      false,
    );
  });
});

describe("withRowChanges", () => {
  it("keeps the newest version that named each row", () => {
    const first = withRowChanges(new Map(), makeEvent({ version: 2, rowIds: ["r1", "r2"] }));
    const second = withRowChanges(first, makeEvent({ version: 3, rowIds: ["r2"] }));
    const replayed = withRowChanges(second, makeEvent({ version: 2, rowIds: ["r2"] }));
    expect(replayed.get("r1")?.version).toBe(2);
    expect(replayed.get("r2")?.version).toBe(3);
    expect(first.get("r2")?.version).toBe(2);
  });

  it("is the same map for a version that names no row", () => {
    const changes = withRowChanges(new Map(), makeEvent());
    expect(withRowChanges(changes, makeEvent({ version: 3, rowIds: [] }))).toBe(changes);
  });
});

describe("changedUnderDraft", () => {
  const draft = { baseVersion: 2, edited: true };

  it("warns about a newer version of the row under an edited draft", () => {
    expect(changedUnderDraft({ version: 3 }, draft, new Set())).toBe(true);
  });

  it("says nothing of the version the draft started from, of none, or of an untouched draft", () => {
    expect(changedUnderDraft({ version: 2 }, draft, new Set())).toBe(false);
    expect(changedUnderDraft(undefined, draft, new Set())).toBe(false);
    expect(changedUnderDraft({ version: 3 }, { ...draft, edited: false }, new Set())).toBe(false);
  });

  it("says nothing of a version the page wrote itself", () => {
    expect(changedUnderDraft({ version: 3 }, draft, new Set([3]))).toBe(false);
  });
});

describe("reopenDelay", () => {
  it("waits longer after each refusal, up to half a minute", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 9].map(reopenDelay)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });
});
