import { realInfra } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { client } from "../http";
import { startedForSuite, startWithTwoGateways } from "../platform";

describe.runIf(realInfra())("several gateways", () => {
  const platform = startedForSuite(startWithTwoGateways);

  it("stops accepting a revoked key at every gateway within a second", async () => {
    const owner = client(platform.baseUrl, platform.ownerKey);
    const key = await owner.post<{ id: string; token: string }>("/v1/api-keys", { name: "doomed" });
    const elsewhere = client(platform.second, key.body.token);
    // Warm the second gateway's cache, so that only the revocation event can clear it in time.
    expect((await elsewhere.get("/v1/account")).status).toBe(200);
    expect((await elsewhere.get("/v1/account")).status).toBe(200);

    expect((await owner.delete(`/v1/api-keys/${key.body.id}`)).status).toBe(204);
    const revokedAt = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 3_000) {
      status = (await elsewhere.get("/v1/account")).status;
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
  });

  it("answers 503 quickly when no service answers a subject", async () => {
    for (const proc of platform.processes.filter((p) => p.name === "reader")) proc.child.kill("SIGTERM");
    await Promise.all(platform.processes.filter((p) => p.name === "reader").map((p) => p.exited));
    const owner = client(platform.second, platform.ownerKey);
    const started = Date.now();
    const response = await owner.get<{ code: string }>("/v1/projects/none/datasets");
    expect(response.status).toBe(503);
    expect(response.body.code).toBe("service_unavailable");
    expect(Date.now() - started).toBeLessThan(2_000);
    const ready = await fetch(`${platform.second}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ services: { reader: "service_unavailable" } });
  });
});
