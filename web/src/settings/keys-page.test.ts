import { describe, expect, it } from "vitest";
import { createdByLabel } from "./keys-page";

describe("createdByLabel", () => {
  it("names the person who made a key, says You for one's own, and says how a key without one was made", () => {
    expect(createdByLabel({ createdBy: { id: "u1", name: "Ada Lovelace" } }, "u2")).toBe("Ada Lovelace");
    expect(createdByLabel({ createdBy: { id: "u1", name: "Ada Lovelace" } }, "u1")).toBe("You");
    expect(createdByLabel({ createdBy: null }, "u1")).toBe("an API key or start-up");
  });
});
