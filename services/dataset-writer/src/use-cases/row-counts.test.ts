import { operations } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { auditDataset, createDataset, insertRows, makeAgentTraces, writerSuite } from "../test-support";

describe.each(availableBackends())("row counts of versions (%s)", (backendName) => {
  const suite = writerSuite(backendName);
  const db = () => suite.backend.database.db;

  /** Each version's recorded row count, oldest first. */
  async function countsByVersion(datasetId: string): Promise<number[]> {
    const versions = await db()
      .selectFrom("dataset_versions")
      .select(["version", "row_count"])
      .where("dataset_id", "=", datasetId)
      .orderBy("version")
      .execute();
    return versions.map((v) => v.row_count);
  }

  /** The dataset's count as the contract answers with it (the writer's answer to an update). */
  async function datasetRows(params: { datasetSlug: string }): Promise<number> {
    const dataset = await suite.caller.call(operations.updateDataset, {
      params,
      body: { description: "counted" },
    });
    return dataset.rows;
  }

  const rowsOf = (n: number, prefix = "r") =>
    Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, input: `q${i}` }));

  it("counts inserts, single and batch edits, deletes of every kind and restores, at each version", async () => {
    const { id, params } = await createDataset(suite.caller);
    expect(await datasetRows(params)).toBe(0);

    await insertRows(suite.caller, params, rowsOf(5)); // v1: 5
    await suite.caller.call(operations.updateDatasetRow, {
      params: { ...params, rowId: "r0" },
      body: { input: "changed" },
    }); // v2: 5
    await suite.caller.call(operations.updateDatasetRows, {
      params,
      body: {
        edits: [
          { rowId: "r1", output: "o" },
          { rowId: "r2", output: "o" },
        ],
      },
    }); // v3: 5
    await suite.caller.call(operations.deleteDatasetRows, {
      params,
      body: { selection: { mode: "selected", rowIds: ["r3", "r4", "missing"] } },
    }); // v4: 3
    await insertRows(suite.caller, params, rowsOf(2, "s")); // v5: 5
    await suite.caller.call(operations.deleteDatasetRows, {
      params,
      body: { selection: { mode: "allExcept", rowIds: ["r0"] } },
    }); // v6: 1
    await suite.caller.call(operations.restoreDatasetVersion, { params: { ...params, version: "5" } }); // v7: 5
    await suite.caller.call(operations.deleteDatasetRows, { params, body: { selection: { mode: "all" } } }); // v8: 0
    await suite.caller.call(operations.restoreDatasetVersion, { params: { ...params, version: "1" } }); // v9: 5
    await suite.caller.call(operations.restoreDatasetVersion, { params: { ...params, version: "0" } }); // v10: 0

    expect(await countsByVersion(id)).toEqual([5, 5, 5, 3, 5, 1, 5, 0, 5, 0]);
    expect(await datasetRows(params)).toBe(0);
    await auditDataset(suite.backend, id);
  });

  it("counts rows copied into another dataset, and rows imported from traces", async () => {
    const source = await createDataset(suite.caller);
    const target = await createDataset(suite.caller);
    await insertRows(suite.caller, source.params, rowsOf(4));
    await insertRows(suite.caller, target.params, rowsOf(2, "t"));

    await suite.caller.call(operations.copyDatasetRows, {
      params: source.params,
      body: { to: { datasetSlug: target.slug }, selection: { mode: "allExcept", rowIds: ["r0"] } },
    });
    expect(await countsByVersion(target.id)).toEqual([2, 5]);
    expect(await datasetRows(target.params)).toBe(5);
    expect(await datasetRows(source.params)).toBe(4);

    const ids = await makeAgentTraces(db(), suite.caller.projectId, [{ startMs: 0 }, { startMs: 10 }]);
    await suite.caller.call(operations.importDatasetRowsFromTraces, {
      params: target.params,
      body: { traces: { by: "ids", ids } },
    });
    expect(await countsByVersion(target.id)).toEqual([2, 5, 7]);
    expect(await datasetRows(target.params)).toBe(7);
    await auditDataset(suite.backend, target.id);
    await auditDataset(suite.backend, source.id);
  });

  it("keeps each version's count when edits to several rows land together", async () => {
    const { id, params } = await createDataset(suite.caller);
    await insertRows(suite.caller, params, rowsOf(3));
    await Promise.all(
      ["r0", "r1", "r2"].map((rowId) =>
        suite.caller.call(operations.updateDatasetRow, {
          params: { ...params, rowId },
          body: { output: rowId },
        }),
      ),
    );
    expect(await countsByVersion(id)).toEqual([3, 3, 3, 3]);
    await auditDataset(suite.backend, id);
  });
});
