import type { Caller, Role } from "@svc/contracts";
import type { Database } from "@svc/db";
import { silentLogger } from "@svc/telemetry";
import { type Backend, makeProject, openBackend } from "@svc/testing";
import { type DatasetFixture, makeDataset } from "@svc/testing/datasets";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReadRouting } from "./read-routing";

/** Stands for the primary: the routing only hands it out, so nothing may be asked of it here. */
const primary = { primary: true } as unknown as Kysely<Database>;

describe("where a read runs when there is a standby", () => {
  let standby: Backend;
  let dataset: DatasetFixture;
  beforeAll(async () => {
    standby = await openBackend("embedded");
    dataset = await makeDataset(standby.database.db, await makeProject(standby.database.db));
  });
  afterAll(async () => {
    await standby?.close();
  });

  const caller = (minVersion?: number): Caller => ({
    organizationId: dataset.organizationId,
    role: "viewer" as Role,
    actor: { kind: "apiKey", id: "k" },
    requestId: "r",
    ...(minVersion === undefined ? {} : { minVersion }),
  });
  const params = () => ({ projectSlug: dataset.projectSlug, datasetSlug: dataset.slug });
  const routing = (waitMs: number) =>
    new ReadRouting(primary, standby.database.db, silentLogger(), { waitMs });
  const setVersion = (version: number) =>
    standby.database.db
      .updateTable("datasets")
      .set({ current_version: version })
      .where("id", "=", dataset.id)
      .execute();

  it("reads the standby when the caller asks for no version, or one the standby has", async () => {
    await setVersion(2);
    expect(await routing(500).choose(caller(), params())).toBe(standby.database.db);
    expect(await routing(500).choose(caller(2), params())).toBe(standby.database.db);
  });

  it("waits for the standby to have the caller's version, then reads it there", async () => {
    await setVersion(2);
    const started = Date.now();
    setTimeout(() => void setVersion(3), 100);
    expect(await routing(5_000).choose(caller(3), params())).toBe(standby.database.db);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it("reads the primary once the wait is over, or at once when the read names no dataset", async () => {
    await setVersion(2);
    const started = Date.now();
    expect(await routing(150).choose(caller(9), params())).toBe(primary);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(await routing(150).choose(caller(1), {})).toBe(primary);
    expect(
      await routing(150).choose(caller(1), { projectSlug: dataset.projectSlug, datasetSlug: "nope" }),
    ).toBe(primary);
  });

  it("reads the primary when there is no standby", async () => {
    const alone = new ReadRouting(primary, undefined, silentLogger(), { waitMs: 500 });
    expect(await alone.choose(caller(), params())).toBe(primary);
  });
});
