import { type DomainError, operations } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { insertRows, makeDataset } from "@svc/testing/datasets";
import { describe, expect, test } from "vitest";
import { failure, readerSuite } from "../test-support";

/*
 * An import writing a dataset's next version in pieces (decision 0055) leaves live rows and
 * revisions under a version the dataset has not reached. Every read of the current version leaves
 * them out until the import's last step makes the version the current one.
 */
describe.each(availableBackends())("a dataset taking an import in pieces (%s)", (backendName) => {
  const reader = readerSuite(backendName);

  test("reads as it was: the rows of the coming version are not listed, found or counted", async () => {
    const dataset = await makeDataset(reader.db, reader.project);
    await insertRows(reader.db, dataset, [{ id: "kept", input: "a" }]);
    // What a piece of the import writes: a live row changed last at version 2 and its revision,
    // while the dataset stays at version 1.
    const coming = {
      dataset_id: dataset.id,
      row_id: "coming",
      input: '"b"',
      custom: "{}",
      created_at: new Date(),
    };
    await reader.db
      .insertInto("dataset_rows")
      .values({ ...coming, version: 2 } as never)
      .execute();
    await reader.db
      .insertInto("row_revisions")
      .values({ ...coming, version_from: 2 } as never)
      .execute();
    const params = { datasetSlug: dataset.slug };

    const page = await reader.call(operations.listDatasetRows, { params, query: {} });
    expect(page.items.map((row) => row.rowId)).toEqual(["kept"]);
    const missing = await reader.call(operations.listDatasetRows, {
      params,
      query: { missing: "expectedOutput" },
    });
    expect(missing.items.map((row) => row.rowId)).toEqual(["kept"]);
    const found = (await failure(
      reader.call(operations.getDatasetRow, { params: { ...params, rowId: "coming" }, query: {} }),
    )) as DomainError;
    expect(found.code).toBe("not_found");
    expect(
      await reader.call(operations.countDatasetRows, { params, query: { missing: "expectedOutput" } }),
    ).toEqual({ count: 1, version: 1 });
    const searched = await reader.call(operations.listDatasetRows, { params, query: { search: "b" } });
    expect(searched.items).toEqual([]);

    // Once the version is made, the same reads find the row.
    await reader.db
      .updateTable("datasets")
      .set({ current_version: 2 })
      .where("id", "=", dataset.id)
      .execute();
    const after = await reader.call(operations.listDatasetRows, { params, query: {} });
    expect(after.items.map((row) => row.rowId).sort()).toEqual(["coming", "kept"]);
    expect(
      await reader.call(operations.getDatasetRow, { params: { ...params, rowId: "coming" }, query: {} }),
    ).toMatchObject({ rowId: "coming", version: 2 });
  });
});
