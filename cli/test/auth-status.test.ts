import { freePort, startEmbedded, type Target } from "@svc/testing/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoStackTrace, runSvc, type SvcResult } from "./run-svc";
import { runOnTerminal } from "./terminal";

let platform: Target;
beforeAll(async () => {
  platform = await startEmbedded();
});
afterAll(() => platform?.stop());

/** `svc auth status` with this key in SVC_API_KEY (no secret store: no session bus is given). */
const status = (key: string, baseUrl = platform.baseUrl, format = "json") =>
  runSvc(["auth", "status", "--format", format], { env: { SVC_API_KEY: key, SVC_BASE_URL: baseUrl } });

const apiKeyStatus = (result: SvcResult) => JSON.parse(result.stdout).schemes[0];

/** The last line of standard error: the one JSON error object. */
const errorOf = (result: SvcResult) => JSON.parse(result.stderr.trimEnd().split("\n").pop() ?? "{}");

function expectNoSecret(result: SvcResult, key: string): void {
  expect(result.stdout + result.stderr).not.toContain(key);
  expect(result.stdout + result.stderr).not.toContain(key.slice(4, 16));
}

describe("svc auth status asks the platform whether the key is usable", () => {
  it("says a valid key from SVC_API_KEY is accepted, with its organisation and role", async () => {
    const result = await status(platform.ownerKey);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    const report = JSON.parse(result.stdout);
    expect(report.usable).toBe(true);
    expect(report.schemes[0]).toMatchObject({
      scheme: "ApiKeyAuth",
      environment: { variable: "SVC_API_KEY", state: "set" },
      used: "environment",
      check: {
        state: "accepted",
        url: `${platform.baseUrl}/v1/account`,
        status: 200,
        organization: { slug: "default" },
        role: "owner",
      },
    });
    // The operator token has no read to check it with.
    expect(report.schemes[1]).toMatchObject({ scheme: "OperatorToken", used: null, check: null });
    expectNoSecret(result, platform.ownerKey);
  });

  it("names the person behind the key, as GET /v1/account does, and nobody for a key made by no person", async () => {
    const account = async (key: string) =>
      (await (
        await fetch(`${platform.baseUrl}/v1/account`, { headers: { authorization: `Bearer ${key}` } })
      ).json()) as { user: { id: string; email: string | null; name: string } | null };
    const env = { SVC_API_KEY: platform.ownerKey, SVC_BASE_URL: platform.baseUrl };
    // The first owner of a fresh installation: a person named "Owner" with no address yet.
    const owner = await account(platform.ownerKey);
    expect(owner.user).toMatchObject({ email: null, name: "Owner" });

    const created = await runSvc(["api-keys", "create", "--name", "made-by-the-owner", "--format", "json"], {
      env,
    });
    expect(created.code, created.stderr).toBe(0);
    const { token } = JSON.parse(created.stdout) as { token: string };
    const made = await status(token);
    expect(made.code, made.stderr).toBe(0);
    expect(apiKeyStatus(made).check.user).toEqual(owner.user);
    expect(apiKeyStatus(made).check.user.id).toBe(owner.user?.id);

    const tty = runOnTerminal(["auth", "status"], {
      env: { ...env, SVC_API_KEY: token },
      onTerminal: { stdout: true, stderr: false },
    });
    expect(tty.code, tty.stderr).toBe(0);
    expect(tty.screen).toContain(
      `  API (${platform.baseUrl}): accepted (organisation default, role member)\n  user: Owner (no e-mail address set)\n`,
    );

    // An organisation made through the operator route without an owner's address: its key is no one's.
    const nobodys = await platform.newOrganizationKey();
    expect((await account(nobodys)).user).toBeNull();
    const report = await status(nobodys);
    expect(report.code, report.stderr).toBe(0);
    expect(apiKeyStatus(report).check).toMatchObject({ state: "accepted", user: null });
    const line = runOnTerminal(["auth", "status"], {
      env: { ...env, SVC_API_KEY: nobodys },
      onTerminal: { stdout: true, stderr: false },
    });
    expect(line.screen).not.toContain("user:");
  });

  it("says a revoked key is refused, and exits 2", async () => {
    const env = { SVC_API_KEY: platform.ownerKey, SVC_BASE_URL: platform.baseUrl };
    const created = await runSvc(["api-keys", "create", "--name", "to-revoke", "--format", "json"], { env });
    expect(created.code, created.stderr).toBe(0);
    const { id, token } = JSON.parse(created.stdout) as { id: string; token: string };
    expect(apiKeyStatus(await status(token)).check.state).toBe("accepted");

    const revoked = await runSvc(["api-keys", "delete", "--id", id], { env });
    expect(revoked.code, revoked.stderr).toBe(0);
    // A revoked key stops working at every gateway within a second.
    let result = await status(token);
    for (let waited = 0; result.code === 0 && waited < 3000; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      result = await status(token);
    }
    expect(result.code, result.stderr).toBe(2);
    const report = JSON.parse(result.stdout);
    expect(report.usable).toBe(false);
    expect(report.schemes[0]).toMatchObject({
      used: "environment",
      check: { state: "refused", status: 401, url: `${platform.baseUrl}/v1/account` },
    });
    expect(errorOf(result)).toMatchObject({
      code: "unauthenticated",
      status: 401,
      error: "the API refused the key from SVC_API_KEY: it is not valid or was revoked",
    });
    expectNoStackTrace(result.stderr);
    expectNoSecret(result, token);
  });

  it("says the platform is unreachable when nothing answers, and exits 4", async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const result = await status(platform.ownerKey, down);
    expect(result.code, result.stderr).toBe(4);
    const report = JSON.parse(result.stdout);
    expect(report.usable).toBe(false);
    expect(report.schemes[0]).toMatchObject({
      used: "environment",
      check: {
        state: "unreachable",
        url: `${down}/v1/account`,
        code: "connection_failed",
        reason: `cannot connect to ${down}: connection refused`,
      },
    });
    expect(errorOf(result)).toMatchObject({ code: "connection_failed", status: null });
    expectNoStackTrace(result.stderr);
    expectNoSecret(result, platform.ownerKey);
  });

  it("says it in one line a person reads on a terminal", () => {
    const env = { SVC_API_KEY: platform.ownerKey, SVC_BASE_URL: platform.baseUrl };
    const tty = runOnTerminal(["auth", "status"], { env, onTerminal: { stdout: true, stderr: false } });
    expect(tty.code, tty.stderr).toBe(0);
    const lines = tty.screen.split("\n");
    expect(lines.slice(0, 5)).toEqual([
      "ApiKeyAuth",
      "  environment (SVC_API_KEY): set",
      expect.stringMatching(/^ {2}secret store \(svc:ApiKeyAuth\): unavailable \(.+\)$/),
      "  using: environment",
      `  API (${platform.baseUrl}): accepted (organisation default, role owner)`,
    ]);
    expect(tty.screen).not.toContain(platform.ownerKey);

    const refused = runOnTerminal(["auth", "status"], {
      env: { ...env, SVC_API_KEY: "svc_not_a_key_000000000000000000" },
      onTerminal: { stdout: true, stderr: false },
    });
    expect(refused.code).toBe(2);
    expect(refused.screen).toContain(
      `  API (${platform.baseUrl}): refused (HTTP 401): the key is not valid or was revoked\n`,
    );
  });
});
