import { describe, expect, test } from "vitest";
import { costAt, microcentsPerMillion, type PriceEntry, priceOf, priceTable } from "./prices";

const own = (model: string, effectiveFrom: string, input: number, output = input): PriceEntry => ({
  id: `${model}@${effectiveFrom}`,
  model,
  effectiveFrom,
  inputMicrocentsPerMillion: microcentsPerMillion(input),
  outputMicrocentsPerMillion: microcentsPerMillion(output),
  source: "organization",
  updatedAt: "2025-01-01T00:00:00.000Z",
});

describe("model prices", () => {
  test("takes the exact name before any prefix, and the longest prefix before a shorter one", () => {
    const table = priceTable([
      own("acme-large", "2024-01-01", 9),
      own("acme*", "2024-01-01", 1),
      own("acme-l*", "2024-01-01", 5),
    ]);
    expect(priceOf(table, "acme-large", "2024-06-01")?.id).toBe("acme-large@2024-01-01");
    expect(priceOf(table, "acme-lite", "2024-06-01")?.id).toBe("acme-l*@2024-01-01");
    expect(priceOf(table, "acme-small", "2024-06-01")?.id).toBe("acme*@2024-01-01");
    expect(priceOf(table, "other", "2024-06-01")).toBeUndefined();
  });

  test("takes the latest price in effect on the span's day, and none before the first", () => {
    const table = priceTable([own("acme", "2024-01-01", 1), own("acme", "2024-03-01", 2)]);
    expect(priceOf(table, "acme", "2023-12-31")).toBeUndefined();
    expect(priceOf(table, "acme", "2024-02-29")?.id).toBe("acme@2024-01-01");
    expect(priceOf(table, "acme", "2024-03-01")?.id).toBe("acme@2024-03-01");
  });

  test("ships defaults that an organisation's price of the same model and day replaces", () => {
    const gpt4oMini = priceOf(priceTable([]), "gpt-4o-mini-2024-07-18", "2025-01-01");
    expect(gpt4oMini).toMatchObject({ model: "gpt-4o-mini*", source: "default" });
    const replaced = priceTable([own("gpt-4o-mini*", "1970-01-01", 1)]);
    expect(replaced.filter((entry) => entry.model === "gpt-4o-mini*")).toEqual([
      expect.objectContaining({ source: "organization" }),
    ]);
  });

  test("costs tokens exactly, rounded to the microcent", () => {
    // $0.075 per million tokens is 7.5 microcents a token.
    expect(costAt(own("m", "2024-01-01", 0.075, 0.3), 3, 1)).toBe(Math.round(3 * 7.5 + 30));
    expect(costAt(own("m", "2024-01-01", 2.5, 10), 1_000_000, 1_000_000)).toBe(250_000_000 + 1_000_000_000);
  });
});
