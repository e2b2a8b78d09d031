import { operations } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { failure, writerSuite } from "../test-support";

describe.each(availableBackends())("dataset names (%s)", (backendName) => {
  const suite = writerSuite(backendName);

  const create = (name: string) => suite.caller.call(operations.createDataset, { body: { name } });
  const rename = (datasetSlug: string, name: string) =>
    suite.caller.call(operations.updateDataset, { params: { datasetSlug }, body: { name } });

  /** The project's datasets as stored: names and slugs. */
  const stored = async () =>
    suite.backend.database.db
      .selectFrom("datasets as d")
      .innerJoin("projects as p", "p.id", "d.project_id")
      .select(["d.name", "d.slug"])
      .where("p.organization_id", "=", suite.caller.context.organizationId as string)
      .orderBy("d.slug")
      .execute();

  const nameTaken = (name: string) => ({
    code: "conflict",
    message: `A dataset named "${name}" already exists in this project; choose another name`,
    details: { name },
  });

  it("refuses to create a dataset whose name is taken, whatever its case, with 409 conflict", async () => {
    await create("Golden set");
    const before = await stored();
    expect(await failure(create("Golden set"))).toEqual(nameTaken("Golden set"));
    expect(await failure(create("GOLDEN SET"))).toEqual(nameTaken("GOLDEN SET"));
    expect(await stored()).toEqual(before);
  });

  it("refuses a name whose slug another dataset has, saying so", async () => {
    await create("Slug clash");
    const before = await stored();
    expect(await failure(create("slug-clash"))).toEqual({
      code: "conflict",
      message:
        'The name "slug-clash" makes the slug "slug-clash", which another dataset of this project has; choose another name',
      details: { name: "slug-clash", slug: "slug-clash" },
    });
    expect(await stored()).toEqual(before);
  });

  it("refuses to rename a dataset to another's name with 409 conflict, changing nothing", async () => {
    await create("Rename target");
    const other = await create("Rename source");
    const before = await stored();
    expect(await failure(rename(other.slug, "rename TARGET"))).toEqual(nameTaken("rename TARGET"));
    expect(await stored()).toEqual(before);
    // Its own name, in another case, is not a clash.
    expect((await rename(other.slug, "RENAME SOURCE")).name).toBe("RENAME SOURCE");
  });

  it("answers concurrent creates of one name with one 201 and 409 for the rest, never a 500", async () => {
    const attempts = await Promise.allSettled(Array.from({ length: 8 }, () => create("Raced create")));
    const created = attempts.filter((a) => a.status === "fulfilled");
    const refused = attempts.flatMap((a) => (a.status === "rejected" ? [a.reason as { code: string }] : []));
    expect(created).toHaveLength(1);
    expect(refused.map((error) => error.code)).toEqual(Array(7).fill("conflict"));
    expect((await stored()).filter((d) => d.name === "Raced create")).toHaveLength(1);
  });

  it("answers concurrent renames of two datasets to one name with one success and one 409", async () => {
    const first = await create("Raced rename one");
    const second = await create("Raced rename two");
    const attempts = await Promise.allSettled([
      rename(first.slug, "Raced rename"),
      rename(second.slug, "Raced rename"),
    ]);
    expect(attempts.map((a) => a.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = attempts.find((a) => a.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject(nameTaken("Raced rename"));
    expect((await stored()).filter((d) => d.name.toLowerCase() === "raced rename")).toHaveLength(1);
  });
});
