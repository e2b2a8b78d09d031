import { describe, expect, it } from "vitest";
import { firstFreeSlug } from "./unique-slug";

describe("firstFreeSlug", () => {
  it("keeps the base when it is free", () => {
    expect(firstFreeSlug("acme", ["acme-corp", "acme-2"])).toBe("acme");
  });

  it("takes the first free numeric suffix", () => {
    expect(firstFreeSlug("acme", ["acme", "acme-2", "acme-4", "acme-corp"])).toBe("acme-3");
  });
});
