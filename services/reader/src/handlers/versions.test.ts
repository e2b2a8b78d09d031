import { operations } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { makeDataset, makeProject, seeds } from "@svc/testing/datasets";
import { describe, expect, test } from "vitest";
import { contextOf, datasetForSuite, failure, readerSuite } from "../test-support";

describe.each(availableBackends())("version queries (%s)", (backendName) => {
  const reader = readerSuite(backendName);
  // These tests read what each version did, not its cells, so any rows will do.
  const dataset = datasetForSuite(reader, [
    { insert: seeds(3) },
    { update: "row-0000", patch: { input: "edited" } },
    { delete: ["row-0001", "row-0002"] },
    { insert: seeds(1, "late") },
    { update: "late-0000", patch: { output: "x" } },
  ]);

  const list = (query: Record<string, string> = {}) =>
    reader.call(operations.listDatasetVersions, { params: { datasetSlug: dataset.slug }, query });
  const get = (version: string) =>
    reader.call(operations.getDatasetVersion, { params: { datasetSlug: dataset.slug, version } });

  const actor = { kind: "apiKey", id: "factory-actor" };

  test("lists versions newest first with what each did and the rows each left", async () => {
    const page = await list();

    expect(
      page.items.map(({ version, operation, rowsInserted, rowsUpdated, rowsDeleted, rows }) => ({
        version,
        operation,
        rowsInserted,
        rowsUpdated,
        rowsDeleted,
        rows,
      })),
    ).toEqual([
      { version: 5, operation: "update", rowsInserted: 0, rowsUpdated: 1, rowsDeleted: 0, rows: 2 },
      { version: 4, operation: "insert", rowsInserted: 1, rowsUpdated: 0, rowsDeleted: 0, rows: 2 },
      { version: 3, operation: "delete", rowsInserted: 0, rowsUpdated: 0, rowsDeleted: 2, rows: 1 },
      { version: 2, operation: "update", rowsInserted: 0, rowsUpdated: 1, rowsDeleted: 0, rows: 3 },
      { version: 1, operation: "insert", rowsInserted: 3, rowsUpdated: 0, rowsDeleted: 0, rows: 3 },
    ]);
    expect(page.items.every((item) => item.versionId.length === 24)).toBe(true);
    expect(page.items[0]?.actor).toEqual(actor);
    expect(page).toMatchObject({ nextCursor: null, hasMore: false });
  });

  test("pages through versions with every one once", async () => {
    const first = await list({ limit: "2" });
    const second = await list({ limit: "2", cursor: first.nextCursor as string });
    const third = await list({ limit: "2", cursor: second.nextCursor as string });

    expect([first, second, third].map((page) => page.items.map((item) => item.version))).toEqual([
      [5, 4],
      [3, 2],
      [1],
    ]);
    expect([first.hasMore, second.hasMore, third.hasMore]).toEqual([true, true, false]);
    expect(third.nextCursor).toBeNull();
  });

  test("returns one version, the same as listed", async () => {
    const listed = (await list()).items.find((item) => item.version === 3);

    expect(await get("3")).toEqual({
      versionId: listed?.versionId,
      version: 3,
      createdAt: listed?.createdAt,
      operation: "delete",
      rowsInserted: 0,
      rowsUpdated: 0,
      rowsDeleted: 2,
      rows: 1,
      actor,
    });
  });

  test("answers 404 for a version that does not exist", async () => {
    expect(await failure(get("6"))).toEqual({
      code: "not_found",
      message: "Version 6 does not exist",
      details: { version: 6, currentVersion: 5 },
    });
    expect(await failure(get("0"))).toMatchObject({ code: "not_found", message: "Version 0 does not exist" });
  });

  test("rejects a version that is not a number, and a garbage cursor", async () => {
    expect(await failure(get("abc"))).toMatchObject({
      code: "validation_failed",
      details: { issues: [expect.objectContaining({ path: "path.version" })] },
    });
    expect(await failure(list({ cursor: "x" }))).toMatchObject({ code: "validation_failed" });
  });

  test("an empty dataset has no versions", async () => {
    const empty = await makeDataset(reader.db, reader.project);

    expect(
      await reader.call(operations.listDatasetVersions, { params: { datasetSlug: empty.slug } }),
    ).toEqual({ items: [], nextCursor: null, hasMore: false });
  });

  test("answers 404 for another organisation's dataset", async () => {
    const stranger = await makeProject(reader.db);
    const asStranger = contextOf(stranger.organizationId);

    const notFound = {
      code: "not_found",
      message: `Dataset "${dataset.slug}" not found in project "${reader.project.projectSlug}"`,
    };

    expect(
      await failure(
        reader.call(operations.listDatasetVersions, { params: { datasetSlug: dataset.slug } }, asStranger),
      ),
    ).toEqual(notFound);
    expect(
      await failure(
        reader.call(
          operations.getDatasetVersion,
          { params: { datasetSlug: dataset.slug, version: "1" } },
          asStranger,
        ),
      ),
    ).toEqual(notFound);
  });
});
