import { type Dataset, operations } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import {
  type DatasetFixture,
  deleteRows,
  insertRows,
  makeDataset,
  makeProject,
  type ProjectFixture,
  removeColumn,
  seeds,
} from "@svc/testing/datasets";
import { beforeAll, describe, expect, test } from "vitest";
import { call, contextOf, failure, readerSuite } from "../test-support";

const builtinColumns = [
  { identifier: "input", name: "Input", source: { kind: "builtin", field: "input" } },
  { identifier: "output", name: "Output", source: { kind: "builtin", field: "output" } },
  {
    identifier: "expectedOutput",
    name: "Expected output",
    source: { kind: "builtin", field: "expectedOutput" },
  },
  { identifier: "metadata", name: "Metadata", source: { kind: "builtin", field: "metadata" } },
];

describe.each(availableBackends())("dataset queries (%s)", (backendName) => {
  const reader = readerSuite(backendName);

  describe("getDataset", () => {
    test("returns the dataset with its active columns in order and its current version", async () => {
      const project = await makeProject(reader.db);
      const dataset = await makeDataset(reader.db, project, { name: "Golden set", customColumns: 2 });
      const [first, second] = dataset.custom as [string, string];
      await insertRows(reader.db, dataset, [{ id: "a", input: 1 }]);
      await insertRows(reader.db, dataset, [{ id: "b", input: 2 }]);
      await removeColumn(reader.db, dataset, "output");
      await removeColumn(reader.db, dataset, first);

      const found = await call(reader, project, operations.getDataset, {
        params: { datasetSlug: dataset.slug },
      });

      expect(found).toEqual({
        id: dataset.id,
        organizationId: project.organizationId,
        projectId: project.projectId,
        slug: dataset.slug,
        name: "Golden set",
        description: null,
        columns: [
          builtinColumns[0],
          builtinColumns[2],
          builtinColumns[3],
          { identifier: second, name: "Custom 2", source: { kind: "custom" } },
        ],
        version: 2,
        rows: 2,
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
        updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      });
    });

    test("counts the rows at the current version, listed and got alike", async () => {
      const project = await makeProject(reader.db);
      const dataset = await makeDataset(reader.db, project);
      await insertRows(reader.db, dataset, seeds(5));
      await deleteRows(reader.db, dataset, ["row-0001", "row-0003"]);

      const found = await call(reader, project, operations.getDataset, {
        params: { datasetSlug: dataset.slug },
      });
      const listed = await call(reader, project, operations.listDatasets, { query: {} });
      expect(found).toMatchObject({ version: 2, rows: 3 });
      expect(listed.items.map((item) => item.rows)).toEqual([3]);
    });

    test("answers 404 for an unknown dataset and for another organisation's, alike", async () => {
      const mine = await makeProject(reader.db);
      const theirs = await makeProject(reader.db);
      const dataset = await makeDataset(reader.db, theirs, { slug: "shared-name" });
      await makeDataset(reader.db, mine, { slug: "mine" });

      const crossed = await failure(
        call(
          reader,
          theirs,
          operations.getDataset,
          { params: { datasetSlug: dataset.slug } },
          contextOf(mine.organizationId),
        ),
      );
      const unknown = await failure(
        call(reader, mine, operations.getDataset, { params: { datasetSlug: "shared-name" } }),
      );

      expect(crossed).toEqual({
        code: "not_found",
        message: `Dataset "shared-name" not found in project "${theirs.projectSlug}"`,
      });
      expect(unknown).toEqual({
        code: "not_found",
        message: `Dataset "shared-name" not found in project "${mine.projectSlug}"`,
      });
    });
  });

  describe("listDatasets", () => {
    let project: ProjectFixture;
    let byName: Record<string, DatasetFixture>;

    beforeAll(async () => {
      project = await makeProject(reader.db);
      byName = {};
      // Names in one order, update times in another; mixed case, which must not change the name order.
      const updated = ["2024-01-05", "2024-01-01", "2024-01-04", "2024-01-02", "2024-01-03"];
      for (const [index, name] of ["alpha", "Bravo", "charlie", "Delta", "echo"].entries()) {
        byName[name] = await makeDataset(reader.db, project, {
          name,
          updatedAt: new Date(`${updated[index]}T00:00:00.000Z`),
        });
      }
      await makeDataset(reader.db, await makeProject(reader.db), { name: "elsewhere" });
    });

    const list = (query: Record<string, string> = {}) =>
      call(reader, project, operations.listDatasets, { query });
    const names = (items: readonly Dataset[]) => items.map((item) => item.name);

    test("lists the most recently updated first by default", async () => {
      const page = await list();
      expect(names(page.items)).toEqual(["alpha", "charlie", "echo", "Delta", "Bravo"]);
      expect(page).toMatchObject({ nextCursor: null, hasMore: false });
      expect(page.items[0]).toMatchObject({
        id: byName.alpha?.id,
        columns: builtinColumns,
        version: 0,
        rows: 0,
      });
    });

    test("sorts by name or update time, in either direction", async () => {
      expect(names((await list({ sortBy: "name" })).items)).toEqual([
        "echo",
        "Delta",
        "charlie",
        "Bravo",
        "alpha",
      ]);
      expect(names((await list({ sortBy: "name", sortDirection: "asc" })).items)).toEqual([
        "alpha",
        "Bravo",
        "charlie",
        "Delta",
        "echo",
      ]);
      expect(names((await list({ sortBy: "updatedAt", sortDirection: "asc" })).items)).toEqual([
        "Bravo",
        "Delta",
        "echo",
        "charlie",
        "alpha",
      ]);
    });

    test.each([
      ["name", "asc", ["alpha", "Bravo", "charlie", "Delta", "echo"]],
      ["updatedAt", "desc", ["alpha", "charlie", "echo", "Delta", "Bravo"]],
    ])("pages by %s %s with every dataset once", async (sortBy, sortDirection, expected) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: Record<string, string> = {
          sortBy,
          sortDirection,
          limit: "2",
          ...(cursor ? { cursor } : {}),
        };
        const page = await list(query);
        seen.push(...names(page.items));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(seen).toEqual(expected);
    });

    test("rejects a cursor used with another sort, and a garbage one", async () => {
      const { nextCursor } = await list({ sortBy: "name", limit: "2" });

      expect(
        await failure(list({ sortBy: "updatedAt", limit: "2", cursor: nextCursor as string })),
      ).toMatchObject({
        code: "validation_failed",
        message: expect.stringContaining("was issued for sortBy=name&sortDirection=desc"),
      });
      expect(await failure(list({ cursor: "not-a-cursor" }))).toMatchObject({ code: "validation_failed" });
    });

    test("rejects an unknown sort and a bad limit", async () => {
      for (const query of [{ sortBy: "size" }, { sortDirection: "up" }, { limit: "0" }, { limit: "201" }]) {
        expect(await failure(list(query))).toMatchObject({ code: "validation_failed" });
      }
    });

    test("answers 404 for an unknown project and for another organisation's", async () => {
      const stranger = await makeProject(reader.db);

      expect(
        await failure(call(reader, { ...project, projectSlug: "nope" }, operations.listDatasets)),
      ).toEqual({ code: "not_found", message: 'Project "nope" not found' });
      expect(
        await failure(call(reader, stranger, operations.listDatasets, {}, contextOf(project.organizationId))),
      ).toEqual({ code: "not_found", message: `Project "${stranger.projectSlug}" not found` });
    });
  });

  describe("listDatasetColumns", () => {
    let project: ProjectFixture;
    let dataset: DatasetFixture;

    beforeAll(async () => {
      project = await makeProject(reader.db);
      dataset = await makeDataset(reader.db, project, { customColumns: 2 });
      await removeColumn(reader.db, dataset, "expectedOutput");
      await removeColumn(reader.db, dataset, dataset.custom[0] as string);
    });

    const columns = (query: Record<string, string> = {}) =>
      call(reader, project, operations.listDatasetColumns, { params: { datasetSlug: dataset.slug }, query });

    test("lists the active columns in order, built-in ones by their field names", async () => {
      expect(await columns()).toEqual({
        columns: [
          builtinColumns[0],
          builtinColumns[1],
          builtinColumns[3],
          { identifier: dataset.custom[1], name: "Custom 2", source: { kind: "custom" } },
        ],
      });
      expect(await columns({ includeRemoved: "false" })).toEqual(await columns());
    });

    test("adds the removed ones, marked, with includeRemoved=true", async () => {
      expect(await columns({ includeRemoved: "true" })).toEqual({
        columns: [
          builtinColumns[0],
          builtinColumns[1],
          { ...builtinColumns[2], removed: true },
          builtinColumns[3],
          { identifier: dataset.custom[0], name: "Custom 1", source: { kind: "custom" }, removed: true },
          { identifier: dataset.custom[1], name: "Custom 2", source: { kind: "custom" } },
        ],
      });
    });

    test("rejects includeRemoved other than true or false", async () => {
      expect(await failure(columns({ includeRemoved: "yes" }))).toMatchObject({
        code: "validation_failed",
        message: "Request is invalid: query.includeRemoved: must be true or false",
      });
    });

    test("answers 404 for another organisation's dataset", async () => {
      const stranger = await makeProject(reader.db);
      expect(
        await failure(
          call(
            reader,
            project,
            operations.listDatasetColumns,
            { params: { datasetSlug: dataset.slug } },
            contextOf(stranger.organizationId),
          ),
        ),
      ).toMatchObject({ code: "not_found" });
    });
  });
});
