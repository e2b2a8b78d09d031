import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmbedded, type Target } from "@svc/testing/platform";
import { programsAvailable } from "@svc/testing/programs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf, expectFailure, expectNoStackTrace, runSvc, SVC, type SvcResult } from "./run-svc";

let platform: Target;
beforeAll(async () => {
  platform = await startEmbedded();
});
afterAll(() => platform?.stop());

interface Step {
  args?: string[];
  /** Another program to run instead of svc, such as secret-tool. */
  command?: string[];
  input?: string;
  env?: Record<string, string | null>;
  /** Run on a real terminal, typing `answer` once `prompt` is shown and echo is off. */
  prompt?: { prompt: string; answer: string };
}

type StepResult = SvcResult & { echoOff?: boolean };

/** Whether this machine has what `inKeyringSession` (with fixtures/keyring-session.mjs) runs. */
const keyring = programsAvailable("dbus-run-session", "dbus-send", "gnome-keyring-daemon");
// Each asked first, so that the run names every program missing, not only the keyring's.
const keyringAndSecretTool = programsAvailable("secret-tool") && keyring;
/** fixtures/pty-prompt.py is the terminal. */
const keyringAndTerminal = programsAvailable("python3") && keyring;

/**
 * Runs the steps one after another in one D-Bus session with a real gnome-keyring, whose keyrings live
 * in a fresh home directory.
 */
function inKeyringSession(steps: Step[]): StepResult[] {
  const driver = fileURLToPath(new URL("./fixtures/keyring-session.mjs", import.meta.url));
  const home = mkdtempSync(join(tmpdir(), "svc-keyring-home-"));
  try {
    const env = { PATH: process.env.PATH, HOME: home, SVC_BASE_URL: platform.baseUrl };
    const run = spawnSync(
      "dbus-run-session",
      ["--", process.execPath, driver, JSON.stringify({ svc: SVC, steps, env })],
      {
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", HOME: home },
        timeout: 60_000,
      },
    );
    if (run.status !== 0) throw new Error(`keyring session failed: ${run.stderr}`);
    return JSON.parse(run.stdout) as StepResult[];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

describe.runIf(keyring)("credentials in a real Secret Service (gnome-keyring)", () => {
  it("logs in, is used, loses to SVC_API_KEY, and logs out", () => {
    const [
      before,
      login,
      status,
      account,
      envWins,
      badLogin,
      statusAfterBad,
      logout,
      statusAfter,
      accountAfter,
    ] = inKeyringSession([
      { args: ["auth", "status", "--format", "json"] },
      { args: ["auth", "login", "--with-token"], input: `${platform.ownerKey}\n` },
      { args: ["auth", "status", "--format", "json"] },
      { args: ["account", "get", "--format", "json"] },
      { args: ["account", "get"], env: { SVC_API_KEY: "svc_wrong_key_0000000000000000" } },
      { args: ["auth", "login", "--with-token"], input: "svc_wrong_key_0000000000000000\n" },
      { args: ["auth", "status", "--format", "json"] },
      { args: ["auth", "logout"] },
      { args: ["auth", "status", "--format", "json"] },
      { args: ["account", "get"] },
    ]);
    expect(before?.code).toBe(2);
    const beforeReport = JSON.parse(before?.stdout ?? "{}");
    expect(beforeReport.schemes[0]).toMatchObject({
      scheme: "ApiKeyAuth",
      environment: { variable: "SVC_API_KEY", state: "unset" },
      secretStore: { entry: "svc:ApiKeyAuth", state: "unset" },
      used: null,
    });

    expect(login?.code, login?.stderr).toBe(0);
    expect(JSON.parse(login?.stdout ?? "{}")).toMatchObject({ stored: "svc:ApiKeyAuth", role: "owner" });
    expect(status?.code).toBe(0);
    expect(JSON.parse(status?.stdout ?? "{}").schemes[0]).toMatchObject({
      secretStore: { state: "set" },
      used: "secret store",
      check: { state: "accepted", role: "owner" },
    });
    for (const step of [login, status]) {
      expect(`${step?.stdout}${step?.stderr}`).not.toContain(platform.ownerKey);
    }

    expect(account?.code, account?.stderr).toBe(0);
    expect(JSON.parse(account?.stdout ?? "{}").role).toBe("owner");
    expect(envWins?.code).toBe(2);

    expect(badLogin?.code).toBe(2);
    expect(JSON.parse(statusAfterBad?.stdout ?? "{}").schemes[0].secretStore.state).toBe("set");

    expect(logout?.code).toBe(0);
    expect(statusAfter?.code).toBe(2);
    expect(JSON.parse(statusAfter?.stdout ?? "{}").schemes[0].secretStore.state).toBe("unset");
    expect(accountAfter?.code).toBe(2);
    for (const failed of [before, envWins, badLogin, statusAfter, accountAfter]) {
      expectNoStackTrace(failed?.stderr ?? "");
      expect(errorOf(failed as SvcResult).code).toMatch(/^(no_credential|unauthenticated)$/);
    }
  });
});

describe.runIf(keyringAndSecretTool)("the Secret Service entry, as other tools look it up", () => {
  const lookup = { command: ["secret-tool", "lookup", "service", "svc", "account", "ApiKeyAuth"] };
  const searchAll = { command: ["secret-tool", "search", "--all", "service", "svc"] };
  /** The attributes of each item that `secret-tool search --all` lists. */
  const items = (result: StepResult | undefined) =>
    `${result?.stdout}${result?.stderr}`
      .split(/^\[/m)
      .slice(1)
      .map((item) =>
        [...item.matchAll(/^attribute\.(\S+) = (.*)$/gm)].map(([, name, value]) => `${name}=${value}`),
      );

  it("is found by service and account after login, as one item, until logout", () => {
    const [login, found, listed, again, listedAgain, logout, gone] = inKeyringSession([
      { args: ["auth", "login", "--with-token"], input: `${platform.ownerKey}\n` },
      lookup,
      searchAll,
      { args: ["auth", "login", "--with-token"], input: `${platform.ownerKey}\n` },
      searchAll,
      { args: ["auth", "logout"] },
      lookup,
    ]);
    expect(login?.code, login?.stderr).toBe(0);
    expect(found?.code, found?.stderr).toBe(0);
    expect(found?.stdout).toBe(platform.ownerKey);
    const expected = [["account=ApiKeyAuth", "service=svc", "username=ApiKeyAuth"]];
    expect(items(listed).map((item) => item.sort())).toEqual(expected);
    expect(again?.code, again?.stderr).toBe(0);
    expect(items(listedAgain).map((item) => item.sort())).toEqual(expected);
    expect(logout?.code).toBe(0);
    expect(gone?.code).toBe(1);
    expect(gone?.stdout).toBe("");
  });

  it("reads a key an earlier svc stored under username alone, and adds the account", () => {
    const [stored, before, status, after, listed, account] = inKeyringSession([
      {
        command: ["secret-tool", "store", "--label=svc", "service", "svc", "username", "ApiKeyAuth"],
        input: platform.ownerKey,
      },
      lookup,
      { args: ["auth", "status", "--format", "json"], env: { SVC_DEBUG_CODE_CACHE: "1" } },
      lookup,
      searchAll,
      { args: ["account", "get", "--format", "json"] },
    ]);
    expect(stored?.code, stored?.stderr).toBe(0);
    expect(before?.code).toBe(1);
    expect(status?.code, status?.stderr).toBe(0);
    // The D-Bus client is its own bundle, loaded only here, where the store is used.
    expect(status?.stderr).toContain("svc: code cache of vendor/dbus-native.cjs: accepted");
    expect(JSON.parse(status?.stdout ?? "{}").schemes[0]).toMatchObject({
      secretStore: { state: "set" },
      used: "secret store",
      check: { state: "accepted" },
    });
    expect(after?.code, after?.stderr).toBe(0);
    expect(after?.stdout).toBe(platform.ownerKey);
    expect(items(listed).map((item) => item.sort())).toEqual([
      ["account=ApiKeyAuth", "service=svc", "username=ApiKeyAuth"],
    ]);
    expect(account?.code, account?.stderr).toBe(0);
    expect(JSON.parse(account?.stdout ?? "{}").role).toBe("owner");
  });
});

describe.runIf(keyringAndTerminal)("auth login on a terminal, in a real Secret Service", () => {
  it("prompts for the key without echo, stores it, and auth status says so in words", () => {
    const prompt = "Paste your API key (input is hidden): ";
    const [login, status, account, insecure] = inKeyringSession([
      { args: ["auth", "login"], prompt: { prompt, answer: platform.ownerKey } },
      { args: ["auth", "status", "--format", "table"] },
      { args: ["account", "get", "--format", "json"] },
      {
        args: ["auth", "login", "--with-token"],
        input: `${platform.ownerKey}\n`,
        env: { SVC_INSECURE: "1" },
      },
    ]);
    expect(login?.echoOff).toBe(true);
    expect(login?.code, login?.stdout).toBe(0);
    // The terminal shows the prompt and the outcome, never the key.
    expect(login?.stdout).toBe(
      `${prompt}\nLogged in to default as owner; the key is stored as svc:ApiKeyAuth.\n`,
    );
    expect(login?.stdout).not.toContain(platform.ownerKey.slice(4, 12));

    expect(status?.code).toBe(0);
    expect(status?.stdout).toBe(
      [
        "ApiKeyAuth",
        "  environment (SVC_API_KEY): unset",
        "  secret store (svc:ApiKeyAuth): set",
        "  using: secret store",
        `  API (${platform.baseUrl}): accepted (organisation default, role owner)`,
        // The start-up owner key was made for the first owner, who has set no address yet.
        "  user: Owner (no e-mail address set)",
        "OperatorToken",
        "  environment (SVC_ADMIN_TOKEN): unset",
        "  secret store (svc:OperatorToken): unset",
        "  using: nothing",
        "",
      ].join("\n"),
    );
    expect(JSON.parse(account?.stdout ?? "{}").role).toBe("owner");

    // auth login sends a request too, so SVC_INSECURE is announced there as well.
    expect(insecure?.code, insecure?.stderr).toBe(0);
    expect(insecure?.stderr).toContain(
      "svc: warning: SVC_INSECURE is set: TLS certificates are not verified\n",
    );
  });
});

describe("a machine without a secret store", () => {
  const noBus = { SVC_BASE_URL: "http://127.0.0.1:9" };

  it.each([
    [["auth", "login", "--with-token"], "svc_anything_0000000000000000"],
    [["auth", "logout"], ""],
  ])("fails %j within seconds, naming SVC_API_KEY", async (args, input) => {
    const result = await runSvc(args, { env: noBus, input });
    const error = expectFailure(result, 2);
    expect(error).toMatchObject({ code: "secret_store_unavailable" });
    expect(error.hint).toContain("SVC_API_KEY");
    expect(result.ms).toBeLessThan(5000);
  });

  it("reports the store as unavailable, with its reason, in auth status", async () => {
    const result = await runSvc(["auth", "status", "--format", "json"], { env: noBus });
    expect(result.code).toBe(2);
    const report = JSON.parse(result.stdout);
    expect(report.usable).toBe(false);
    expect(report.schemes[0].secretStore.state).toBe("unavailable");
    expect(report.schemes[0].secretStore.reason).toBeTruthy();
    expect(errorOf(result).hint).toContain("SVC_API_KEY");
    expectNoStackTrace(result.stderr);
  });

  it("uses SVC_API_KEY without the store", async () => {
    const result = await runSvc(["auth", "status", "--format", "json"], {
      env: { SVC_API_KEY: platform.ownerKey, SVC_BASE_URL: platform.baseUrl },
    });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout).schemes[0];
    expect(report).toMatchObject({ used: "environment", check: { state: "accepted" } });
    expect(report.secretStore.state).toBe("unavailable");
    expect(result.stdout).not.toContain(platform.ownerKey);
  });
});
