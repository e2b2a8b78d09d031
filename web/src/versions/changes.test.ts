import { describe, expect, it } from "vitest";
import { builtinColumn, customColumn } from "../rows/factories";
import { actorLabel, cellChanges } from "./changes";

const columns = [builtinColumn("input"), builtinColumn("expectedOutput"), customColumn("c1", "difficulty")];

describe("cellChanges", () => {
  it("lists only the cells whose value differs, in column order, whatever the key order", () => {
    const before = { input: { a: 1, b: 2 }, expectedOutput: "4", custom: { c1: "easy" } };
    const after = { input: { b: 2, a: 1 }, expectedOutput: "four", custom: { c1: "hard" } };
    expect(cellChanges(columns, before, after).map((c) => [c.column.identifier, c.before, c.after])).toEqual([
      ["expectedOutput", "4", "four"],
      ["c1", "easy", "hard"],
    ]);
  });

  it("treats an unset cell and a null one alike", () => {
    expect(
      cellChanges(
        columns,
        { input: 1, custom: {} },
        { input: 1, expectedOutput: null, custom: { c1: null } },
      ),
    ).toEqual([]);
  });

  it("gives every set cell of an added or a removed row", () => {
    const cells = { input: "q", custom: { c1: "x" } };
    expect(cellChanges(columns, null, cells).map((c) => c.after)).toEqual(["q", "x"]);
    expect(cellChanges(columns, cells, null).map((c) => c.before)).toEqual(["q", "x"]);
  });
});

describe("actorLabel", () => {
  it("says You for this browser's session, and names the kind of anyone else", () => {
    expect(actorLabel({ kind: "session", id: "s-mine" }, "s-mine")).toBe("You");
    expect(actorLabel({ kind: "session", id: "s-other-123" }, "s-mine")).toBe("Session s-other-");
    expect(actorLabel({ kind: "apiKey", id: "k1234567890" }, "s-mine")).toBe("API key k1234567");
    expect(actorLabel({ kind: "oauth", id: "o1234567890" }, undefined)).toBe("Agent o1234567");
    expect(actorLabel({ kind: "user", id: "u-mine", name: "Ada" }, "u-mine")).toBe("You");
    expect(actorLabel({ kind: "user", id: "u-other", name: "Grace Hopper" }, "u-mine")).toBe("Grace Hopper");
  });
});
