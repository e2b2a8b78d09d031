import { describe, expect, it } from "vitest";
import { builtinColumn, customColumn } from "./factories";
import {
  DEFAULT_LAYOUT,
  defaultWidth,
  layoutStorageKey,
  parseLayout,
  pinnedInOrder,
  readLayout,
  withPinned,
  withShown,
  withWidth,
  writeLayout,
} from "./grid-layout";

/** Local storage as a map, or one that refuses as a private window or a full quota does. */
function storageOf(entries: Record<string, string> = {}, refuse = false): Storage {
  const map = new Map(Object.entries(entries));
  const refused = () => {
    throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
  };
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    key: (index) => [...map.keys()][index] ?? null,
    getItem: (key) => (refuse ? refused() : (map.get(key) ?? null)),
    setItem: (key, value) => (refuse ? refused() : void map.set(key, value)),
    removeItem: (key) => (refuse ? refused() : void map.delete(key)),
  };
}

describe("the grid's layout", () => {
  it("changes one column at a time: widths within bounds, the row id never hidden, pins in the grid's order", () => {
    let layout = withWidth(DEFAULT_LAYOUT, "input", 5_000);
    expect(layout.widths).toEqual({ input: 1200 });
    layout = withWidth(layout, "input", 12.4);
    expect(layout.widths).toEqual({ input: 60 });
    layout = withShown(withShown(layout, "c1", false), "rowId", false);
    expect(layout.hidden).toEqual(["c1"]);
    expect(withShown(layout, "c1", true).hidden).toEqual([]);
    layout = withPinned(withPinned(layout, "output", true), "rowId", true);
    expect(pinnedInOrder(layout, ["rowId", "input", "output", "c1"])).toEqual(["rowId", "output"]);
    expect(withPinned(layout, "output", false).pinned).toEqual(["rowId"]);
  });

  it("gives each column its default width until one is set", () => {
    const columns = [builtinColumn("input"), builtinColumn("metadata"), customColumn("c1", "x")];
    expect(["rowId", "input", "metadata", "c1"].map((id) => defaultWidth(id, columns))).toEqual([
      140, 260, 200, 260,
    ]);
  });

  it("reads what storage holds and leaves out what it cannot trust", () => {
    expect(parseLayout(null)).toEqual(DEFAULT_LAYOUT);
    expect(parseLayout("not json")).toEqual(DEFAULT_LAYOUT);
    expect(parseLayout("[1,2]")).toEqual(DEFAULT_LAYOUT);
    expect(
      parseLayout(
        JSON.stringify({
          widths: { input: 300, c1: "wide", c2: 99_999, "": 100 },
          hidden: ["c1", "c1", 4, "rowId"],
          pinned: "input",
        }),
      ),
    ).toEqual({ widths: { input: 300, c2: 1200 }, hidden: ["c1"], pinned: [] });
  });

  it("keeps a layout per dataset, and the default as nothing stored", () => {
    const storage = storageOf();
    const layout = { widths: { input: 300 }, hidden: ["c1"], pinned: ["rowId"] };
    expect(writeLayout(() => storage, "d1", layout)).toBe(true);
    expect(storage.getItem(layoutStorageKey("d1"))).not.toBeNull();
    expect(readLayout(() => storage, "d1")).toEqual(layout);
    expect(readLayout(() => storage, "d2")).toEqual(DEFAULT_LAYOUT);
    expect(writeLayout(() => storage, "d1", DEFAULT_LAYOUT)).toBe(true);
    expect(storage.length).toBe(0);
  });

  it("works without storage: one that refuses, or none at all, gives the default and keeps nothing", () => {
    const refusing = storageOf({ [layoutStorageKey("d1")]: '{"hidden":["c1"]}' }, true);
    expect(readLayout(() => refusing, "d1")).toEqual(DEFAULT_LAYOUT);
    expect(writeLayout(() => refusing, "d1", { widths: {}, hidden: ["c1"], pinned: [] })).toBe(false);
    const none = (): Storage => {
      throw new DOMException("The operation is insecure.", "SecurityError");
    };
    expect(readLayout(none, "d1")).toEqual(DEFAULT_LAYOUT);
    expect(writeLayout(none, "d1", DEFAULT_LAYOUT)).toBe(false);
  });
});
