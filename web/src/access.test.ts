import { describe, expect, it } from "vitest";
import openApiText from "../../shared/contracts/openapi.json?raw";
import { mayCall } from "./access";
import { leastRole, roles } from "./access.generated";

interface Document {
  paths: Record<string, Record<string, { operationId: string; "x-svc-access": string }>>;
}
const document = JSON.parse(openApiText) as Document;
const declared = Object.fromEntries(
  Object.values(document.paths)
    .flatMap((item) => Object.values(item))
    .map((operation) => [operation.operationId, operation["x-svc-access"]]),
);

describe("mayCall", () => {
  it("is generated from the operation table as the OpenAPI document has it (run `npm run generate`)", () => {
    expect(leastRole).toEqual(declared);
  });

  it("lets every role read, only members and above write, and only admins and owners manage", () => {
    expect(roles.map((role) => mayCall(role, "listDatasetRows"))).toEqual([true, true, true, true]);
    expect(roles.map((role) => mayCall(role, "updateDatasetRow"))).toEqual([true, true, true, false]);
    expect(roles.map((role) => mayCall(role, "listApiKeys"))).toEqual([true, true, false, false]);
  });

  it("gives no role an operation only the platform's operator may call", () => {
    expect(roles.some((role) => mayCall(role, "createOrganization"))).toBe(false);
  });
});
