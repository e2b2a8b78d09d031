import { describe, expect, it } from "vitest";
import { cuidSchema, newId, slugify } from "./ids";

describe("identifiers", () => {
  it("are 24-character CUID2 strings that the schema accepts", () => {
    for (let i = 0; i < 1_000; i++) {
      const id = newId();
      expect(id).toMatch(/^[a-z][0-9a-z]{23}$/);
      expect(cuidSchema.safeParse(id).success).toBe(true);
    }
  });

  it("do not repeat", () => {
    const ids = new Set(Array.from({ length: 50_000 }, newId));
    expect(ids.size).toBe(50_000);
  });

  it("cost a few microseconds each", () => {
    const started = performance.now();
    for (let i = 0; i < 10_000; i++) newId();
    expect((performance.now() - started) / 10_000).toBeLessThan(0.05);
  });

  it.each([
    "",
    "a".repeat(25),
    "Aaaaaaaaaaaaaaaaaaaaaaaa",
    "1aaaaaaaaaaaaaaaaaaaaaaa",
    "aaaaaaaaaaaaaaaaaaaaaaa-",
  ])("refuses %j", (value) => {
    expect(cuidSchema.safeParse(value).success).toBe(false);
  });

  it("derives URL-safe slugs from names", () => {
    expect(slugify("Support bot — Golden Set!")).toBe("support-bot-golden-set");
    expect(slugify("Crème brûlée")).toBe("creme-brulee");
    expect(slugify("***")).toBe("item");
  });
});
