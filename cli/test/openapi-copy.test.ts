import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

describe("cli/openapi.json", () => {
  it("is the same document as shared/contracts/openapi.json (run `npm run openapi` to refresh both)", () => {
    const contracts = readFileSync(new URL("../../shared/contracts/openapi.json", import.meta.url), "utf8");
    const cli = readFileSync(new URL("../openapi.json", import.meta.url), "utf8");
    expect(
      cli === contracts,
      "cli/openapi.json has drifted: run `npm run openapi` and commit the result",
    ).toBe(true);
  });
});
