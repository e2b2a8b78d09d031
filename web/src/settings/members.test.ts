import { describe, expect, it } from "vitest";
import { SvcError } from "../api";
import { changeProblem, invitationProblem, leaveProblem, mayChange, rolesGivenBy } from "./members";

const failure = (status: number, code: string, message = "said by the platform") =>
  new SvcError({ status, code, message, requestId: "req_1" });

describe("members", () => {
  it("lets only an owner give the owner role, or change and remove an owner", () => {
    expect(rolesGivenBy("owner")).toEqual(["owner", "admin", "member", "viewer"]);
    expect(rolesGivenBy("admin")).toEqual(["admin", "member", "viewer"]);
    expect(mayChange("owner", "owner")).toBe(true);
    expect(mayChange("admin", "owner")).toBe(false);
    expect(mayChange("admin", "member")).toBe(true);
    expect(mayChange("member", "viewer")).toBe(false);
    expect(mayChange("viewer", "viewer")).toBe(false);
  });

  it("says why an invitation failed: an existing member, a malformed address, a role that may not invite", () => {
    expect(invitationProblem(failure(409, "conflict"), "ann@example.com")).toBe(
      "ann@example.com is already a member of this organisation.",
    );
    expect(invitationProblem(failure(400, "validation_failed", "email: invalid"), "ann@")).toMatch(
      /^“ann@” is not an e-mail address .*\(email: invalid\)\.$/,
    );
    expect(invitationProblem(failure(403, "forbidden"), "ann@example.com")).toMatch(
      /^Only owners and admins invite members/,
    );
    expect(invitationProblem(failure(503, "service_unavailable"), "ann@example.com")).toBeUndefined();
    expect(invitationProblem(new Error("offline"), "ann@example.com")).toBeUndefined();
  });

  it("says the last owner cannot leave, or be demoted or removed, and what to do", () => {
    expect(leaveProblem(failure(409, "conflict"))).toMatch(/last owner.*make another member an owner first/);
    expect(leaveProblem(failure(403, "forbidden"))).toMatch(/no membership to leave/);
    expect(changeProblem(failure(409, "conflict"))).toMatch(/needs an owner: make another member an owner/);
    expect(changeProblem(failure(403, "forbidden"))).toMatch(/^Only an owner may change or remove an owner/);
    expect(changeProblem(failure(500, "internal_error"))).toBeUndefined();
  });
});
