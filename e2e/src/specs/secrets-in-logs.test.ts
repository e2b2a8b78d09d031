import { randomBytes } from "node:crypto";
import { realInfra } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../http";
import { startDistributed, startEmbedded, type Target } from "../targets";

/** Every process at its most talkative: a secret that reaches any log line at all shows up. */
const VERBOSE = { LOG_LEVEL: "trace" };

const modes: [string, () => Promise<Target>][] = [["embedded", () => startEmbedded(VERBOSE)]];
if (realInfra()) modes.push(["distributed", () => startDistributed({ env: VERBOSE })]);

const randomKey = () => `svc_${randomBytes(32).toString("base64url")}`;

describe.each(modes)("no secret in any process's output (%s)", (_name, start) => {
  let target: Target;
  /** Every credential the test used, valid or not: none may be written anywhere. */
  const secrets = new Map<string, string>();
  let output = "";

  beforeAll(async () => {
    target = await start();
    secrets.set("bootstrap or first owner key", target.ownerKey);
    secrets.set("operator token", target.adminToken);
    await exercise();
    // Stopping flushes every process's output before it is read.
    await target.stop();
    output = target.processes.map((p) => `--- ${p.name}\n${p.transcript.join("")}`).join("\n");
  });
  afterAll(async () => {
    if (target?.processes.some((p) => p.child.exitCode === null)) await target.stop();
  });

  /** Creates, replays, verifies, refuses and revokes credentials, all through the gateway. */
  async function exercise() {
    const operator = client(target.baseUrl, target.adminToken);
    const name = `Secrets ${randomBytes(3).toString("hex")}`;
    const org = await operator.post<{ apiKey: { token: string } }>(
      "/v1/organizations",
      { name },
      { "idempotency-key": "org-secret" },
    );
    expect(org.status).toBe(201);
    // The replay answers without the token, which is stored nowhere (docs/decisions/0002).
    const replay = await operator.post<{ apiKey: { token: string | null } }>(
      "/v1/organizations",
      { name },
      { "idempotency-key": "org-secret" },
    );
    expect(replay.status).toBe(201);
    expect(replay.body.apiKey.token).toBeNull();
    const owner = client(target.baseUrl, org.body.apiKey.token);
    secrets.set("new organisation's owner key", org.body.apiKey.token);

    const created = await owner.post<{ id: string; token: string }>(
      "/v1/api-keys",
      { name: "logged?", role: "member" },
      { "idempotency-key": "key-secret" },
    );
    expect(created.status).toBe(201);
    const replayed = await owner.post<{ token: string | null }>(
      "/v1/api-keys",
      { name: "logged?", role: "member" },
      { "idempotency-key": "key-secret" },
    );
    expect(replayed.body.token).toBeNull();
    secrets.set("created key", created.body.token);
    const member = client(target.baseUrl, created.body.token);
    expect((await member.get("/v1/account")).status).toBe(200);
    expect((await member.get("/v1/projects")).status).toBe(200);

    const unknown = randomKey();
    secrets.set("unknown key", unknown);
    expect((await client(target.baseUrl, unknown).get("/v1/account")).status).toBe(401);
    const wrongOperator = randomBytes(24).toString("hex");
    secrets.set("wrong operator token", wrongOperator);
    expect(
      (await client(target.baseUrl, wrongOperator).post("/v1/organizations", { name: "x" })).status,
    ).toBe(401);
    for (const [label, authorization] of [
      ["key without a scheme", randomKey()],
      ["key in Basic", `Basic ${randomKey()}`],
      ["over-long bearer", `Bearer ${randomKey()}${"x".repeat(600)}`],
    ] as const) {
      secrets.set(label, authorization.replace(/^\w+ /, ""));
      const answer = await fetch(`${target.baseUrl}/v1/account`, { headers: { authorization } });
      expect(answer.status).toBe(401);
    }

    expect((await owner.delete(`/v1/api-keys/${created.body.id}`)).status).toBe(204);
    expect((await member.get("/v1/account")).status).toBe(401);
  }

  it("writes request logs for what the test did, so that the search below has something to search", () => {
    expect(output).toContain('"url":"/v1/api-keys"');
    expect(output).toContain('"url":"/v1/organizations"');
    expect(output).toMatch(/"status":401/);
  });

  it("never writes a full API key or operator token, nor the secret part of one, to stdout or stderr", () => {
    const found: string[] = [];
    for (const [label, secret] of secrets) {
      // The part after "svc_" is the secret; a log that strips the prefix leaks it all the same.
      const needles = [secret, secret.replace(/^svc_/, "").slice(0, 32)];
      for (const needle of needles) {
        const at = output.indexOf(needle);
        if (at >= 0) found.push(`${label} at: ${output.slice(Math.max(0, at - 200), at + 60)}`);
      }
    }
    expect(found).toEqual([]);
  });
});
