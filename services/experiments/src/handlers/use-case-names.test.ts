import { useCaseNameMismatches } from "@svc/testing/use-case-names";
import { expect, it } from "vitest";

it("calls, for each operation, the use-case named as the operation from use-cases/<kebab-operation-id>.ts", () => {
  expect(useCaseNameMismatches(new URL("./", import.meta.url))).toEqual([]);
});
