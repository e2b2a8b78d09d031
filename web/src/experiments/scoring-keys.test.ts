import { describe, expect, it } from "vitest";
import { keyCommand, moveSelection } from "./scoring-keys";

const press = (key: string, extra: Partial<{ ctrlKey: boolean; target: EventTarget | null }> = {}) =>
  keyCommand({ key, ctrlKey: false, altKey: false, metaKey: false, target: null, ...extra });

describe("keyCommand", () => {
  it("moves with j, k and the arrows", () => {
    expect([press("j"), press("ArrowDown"), press("k"), press("ArrowUp")]).toEqual([
      { kind: "move", by: 1 },
      { kind: "move", by: 1 },
      { kind: "move", by: -1 },
      { kind: "move", by: -1 },
    ]);
  });

  it("records a pass, a fail, a 1-5 rating, and opens the comment box", () => {
    expect(press("p")).toEqual({ kind: "score", name: "pass", value: true });
    expect(press("f")).toEqual({ kind: "score", name: "pass", value: false });
    expect(press("4")).toEqual({ kind: "score", name: "rating", value: 4 });
    expect(press("c")).toEqual({ kind: "comment" });
    expect(press("6")).toBeUndefined();
  });

  it("leaves keys with Ctrl and keys typed into a field to the browser", () => {
    expect(press("p", { ctrlKey: true })).toBeUndefined();
    const field = document.createElement("input");
    expect(press("p", { target: field })).toBeUndefined();
    const box = document.createElement("input");
    box.type = "checkbox";
    expect(press("p", { target: box })).toEqual({ kind: "score", name: "pass", value: true });
  });
});

describe("moveSelection", () => {
  it("starts at the first row and stays inside the list", () => {
    expect(moveSelection(["a", "b", "c"], undefined, 1)).toBe("a");
    expect(moveSelection(["a", "b", "c"], "a", 1)).toBe("b");
    expect(moveSelection(["a", "b", "c"], "c", 1)).toBe("c");
    expect(moveSelection(["a", "b", "c"], "a", -1)).toBe("a");
    expect(moveSelection([], "a", 1)).toBeUndefined();
  });
});
