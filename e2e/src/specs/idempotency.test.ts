import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { client } from "../http";
import { waitFor } from "../platform";
import { datasetForSuite, targets } from "../targets";

/** Sends a request over a raw socket and cuts the connection before any answer can arrive. */
function sendAndHangUp(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string,
) {
  const url = new URL(baseUrl);
  return new Promise<void>((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      const head = [
        `${method} ${path} HTTP/1.1`,
        `Host: ${url.host}`,
        "Content-Type: application/json",
        `Content-Length: ${Buffer.byteLength(body)}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        "",
        "",
      ].join("\r\n");
      socket.end(head + body, () => {
        socket.destroy();
        resolve();
      });
    });
    socket.on("error", reject);
  });
}

describe.each(targets())("Idempotency-Key through the gateway (%s)", (_name, start) => {
  const suite = datasetForSuite(start);

  beforeAll(async () => {
    await suite.api.post(`${suite.base}/rows`, { rows: [{ id: "q1", input: "2+2?" }] });
  });

  const currentVersion = async () => (await suite.api.get<{ version: number }>(suite.base)).body.version;

  it("answers a retry after a lost reply with the first answer, and makes one version", async () => {
    const body = JSON.stringify({ expectedOutput: { answer: "4" } });
    const headers = { Authorization: `Bearer ${suite.target.ownerKey}`, "Idempotency-Key": "edit-q1-answer" };
    const before = await currentVersion();
    await sendAndHangUp(suite.target.baseUrl, "PATCH", `${suite.base}/rows/q1`, headers, body);
    // The edit committed although nobody heard the answer.
    await waitFor("the first attempt to commit", async () =>
      (await currentVersion()) === before + 1 ? true : undefined,
    );

    const retry = await suite.api.patch<{ versionId: string; version: number }>(
      `${suite.base}/rows/q1`,
      body,
      {
        "idempotency-key": "edit-q1-answer",
      },
    );
    expect(retry.status).toBe(200);
    expect(retry.body.version).toBe(before + 1);
    const again = await suite.api.patch<{ versionId: string; version: number }>(
      `${suite.base}/rows/q1`,
      body,
      {
        "idempotency-key": "edit-q1-answer",
      },
    );
    expect(again.body).toEqual(retry.body);
    expect(await currentVersion()).toBe(before + 1);
    const versions = await suite.api.get<{ items: { version: number; versionId: string }[] }>(
      `${suite.base}/versions`,
    );
    expect(versions.body.items[0]).toMatchObject({ version: before + 1, versionId: retry.body.versionId });
  });

  it("refuses the same key with a different body with 409, changing nothing", async () => {
    const first = await suite.api.patch(
      `${suite.base}/rows/q1`,
      { output: "4" },
      { "idempotency-key": "edit-q1-output" },
    );
    expect(first.status).toBe(200);
    const before = await currentVersion();
    const reused = await suite.api.patch<{ code: string; error: string }>(
      `${suite.base}/rows/q1`,
      { output: "5" },
      { "idempotency-key": "edit-q1-output" },
    );
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe("idempotency_key_reused");
    expect(await currentVersion()).toBe(before);
  });

  it("makes one dataset and one project for a retried create", async () => {
    const created = await suite.api.post<{ id: string }>(
      "/v1/projects",
      { name: "Once only" },
      { "idempotency-key": "proj-once" },
    );
    const retried = await suite.api.post<{ id: string }>(
      "/v1/projects",
      { name: "Once only" },
      { "idempotency-key": "proj-once" },
    );
    expect(created.status).toBe(201);
    expect(retried.status).toBe(201);
    expect(retried.body.id).toBe(created.body.id);
  });

  it("stores a retried OTLP export once, and refuses the key with another export", async () => {
    const project = suite.base.split("/")[3] as string;
    const traceId = randomBytes(16).toString("hex");
    const spanId = randomBytes(8).toString("hex");
    const span = (name: string) => exportOf(traceId, spanId, name);
    const headers = { "x-svc-project": project, "idempotency-key": "export-once" };
    const first = await suite.api.post("/v1/traces", span("first copy"), headers);
    expect(first.status).toBe(200);
    // The span is re-sent by a later export; replaying the first must not bring the first copy back.
    expect(
      (await suite.api.post("/v1/traces", span("second copy"), { "x-svc-project": project })).status,
    ).toBe(200);

    const retry = await suite.api.post("/v1/traces", span("first copy"), headers);

    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    const trace = await suite.api.get<{ spanCount: number; rootSpanName: string }>(
      `/v1/projects/${project}/traces/${traceId}`,
    );
    expect(trace.body).toMatchObject({ spanCount: 1, rootSpanName: "second copy" });
    const otherTrace = randomBytes(16).toString("hex");
    const reused = await suite.api.post<{ code: string }>(
      "/v1/traces",
      exportOf(otherTrace, randomBytes(8).toString("hex"), "other"),
      headers,
    );
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe("idempotency_key_reused");
    expect((await suite.api.get(`/v1/projects/${project}/traces/${otherTrace}`)).status).toBe(404);
  });

  it("makes one organisation for a retried operator creation, shows its owner token once, and refuses the key with another name", async () => {
    const operator = client(suite.target.baseUrl, suite.target.adminToken);
    const name = `Once ${randomBytes(3).toString("hex")}`;
    const headers = { "idempotency-key": `org-${name.replace(" ", "-")}` };
    const first = await operator.post<{ organization: { id: string }; apiKey: { token: string } }>(
      "/v1/organizations",
      { name },
      headers,
    );
    const retry = await operator.post("/v1/organizations", { name }, headers);

    expect(first.status).toBe(201);
    expect(first.body.apiKey).toMatchObject({
      token: expect.stringMatching(/^svc_/),
      tokenAlreadyShown: false,
    });
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual({
      ...first.body,
      apiKey: { ...first.body.apiKey, token: null, tokenAlreadyShown: true },
    });
    expect(retry.headers.get("cache-control")).toBe("no-store");
    const account = await client(suite.target.baseUrl, first.body.apiKey.token).get<{
      organization: { id: string };
    }>("/v1/account");
    expect(account.body.organization.id).toBe(first.body.organization.id);
    const reused = await operator.post<{ code: string }>("/v1/organizations", { name: `${name} 2` }, headers);
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe("idempotency_key_reused");
  });

  it("shows a new key's token once: a retry, by its creator or another admin, gets the key without it", async () => {
    const headers = { "idempotency-key": `key-${randomBytes(4).toString("hex")}` };
    const body = { name: "Shown once", role: "viewer" };
    const first = await suite.api.post<{ id: string; token: string }>("/v1/api-keys", body, headers);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ token: expect.stringMatching(/^svc_/), tokenAlreadyShown: false });
    const withheld = { ...first.body, token: null, tokenAlreadyShown: true };
    const retry = await suite.api.post("/v1/api-keys", body, headers);
    expect(retry).toMatchObject({ status: 201, body: withheld });
    const admin = await suite.api.post<{ token: string }>("/v1/api-keys", {
      name: "Other admin",
      role: "admin",
    });
    const replayed = await client(suite.target.baseUrl, admin.body.token).post("/v1/api-keys", body, headers);
    expect(replayed).toMatchObject({ status: 201, body: withheld });
    expect(JSON.stringify([retry.body, replayed.body])).not.toContain(first.body.token);
    // One key was made, and its token works.
    const keys = await suite.api.get<{ apiKeys: { name: string }[] }>("/v1/api-keys");
    expect(keys.body.apiKeys.filter((key) => key.name === "Shown once")).toHaveLength(1);
    expect((await client(suite.target.baseUrl, first.body.token).get("/v1/account")).status).toBe(200);
  });

  it("refuses a malformed Idempotency-Key", async () => {
    const response = await suite.api.patch<{ code: string }>(
      `${suite.base}/rows/q1`,
      { output: 1 },
      { "idempotency-key": "bad key with spaces" },
    );
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("validation_failed");
  });
});

/** An OTLP/HTTP JSON export of one root span. */
function exportOf(traceId: string, spanId: string, name: string) {
  return {
    resourceSpans: [
      {
        scopeSpans: [
          {
            scope: { name: "retries" },
            spans: [
              {
                traceId,
                spanId,
                name,
                kind: 1,
                startTimeUnixNano: "1714564800000000000",
                endTimeUnixNano: "1714564801000000000",
              },
            ],
          },
        ],
      },
    ],
  };
}
