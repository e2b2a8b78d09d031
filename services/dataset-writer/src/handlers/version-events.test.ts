import { datasetEventsSubject, datasetVersionWrittenSchema, operations } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { type CreatedDataset, createDataset, currentVersion, insertRows, writerSuite } from "../test-support";

describe.each(availableBackends())("announcing a dataset's new versions (%s)", (backendName) => {
  const suite = writerSuite(backendName);

  /** Listens to a dataset's subject: each hint, with the version committed when it arrived. */
  function listen(dataset: CreatedDataset) {
    const heard: { version: number; committed: number }[] = [];
    const pending: Promise<void>[] = [];
    const ref = {
      organizationId: suite.caller.context.organizationId,
      projectSlug: suite.caller.projectSlug,
      datasetSlug: dataset.slug,
    };
    const subscription = suite.backend.bus.subscribe(datasetEventsSubject(ref), (payload) => {
      const hint = datasetVersionWrittenSchema.parse(payload);
      expect(hint).toMatchObject(ref);
      pending.push(
        currentVersion(suite.backend, dataset.id).then((committed) => {
          heard.push({ version: hint.version, committed });
        }),
      );
    });
    return {
      heard,
      /** The versions heard, once every hint sent so far has arrived. */
      versions: async (count: number) => {
        for (let i = 0; i < 200 && heard.length < count; i++) await new Promise((r) => setTimeout(r, 10));
        await Promise.all(pending);
        subscription.unsubscribe();
        return heard.map((entry) => entry.version);
      },
    };
  }

  it("announces each version a mutation made, after its commit, and none for a change of nothing", async () => {
    const dataset = await createDataset(suite.caller);
    const listener = listen(dataset);
    await insertRows(suite.caller, dataset.params, [
      { id: "a", input: 1 },
      { id: "b", input: 2 },
    ]);
    await suite.caller.call(operations.updateDatasetRow, {
      params: { ...dataset.params, rowId: "a" },
      body: { output: "x" },
    });
    await suite.caller.call(operations.updateDatasetRows, {
      params: dataset.params,
      body: { edits: [{ rowId: "b", output: "y" }] },
    });
    await suite.caller.call(operations.deleteDatasetRows, {
      params: dataset.params,
      body: { selection: { mode: "selected", rowIds: ["missing"] } },
    });
    await suite.caller.call(operations.deleteDatasetRows, {
      params: dataset.params,
      body: { selection: { mode: "selected", rowIds: ["a"] } },
    });
    await suite.caller.call(operations.restoreDatasetVersion, {
      params: { ...dataset.params, version: "1" },
    });

    expect(await listener.versions(5)).toEqual([1, 2, 3, 4, 5]);
    // Each was committed when its hint arrived: a gateway that reads it at once finds it.
    for (const { version, committed } of listener.heard) expect(committed).toBeGreaterThanOrEqual(version);
  });

  it("announces a copy's version on the dataset it wrote", async () => {
    const source = await createDataset(suite.caller);
    const target = await createDataset(suite.caller);
    await insertRows(suite.caller, source.params, [{ id: "c", input: 1 }]);
    const onTarget = listen(target);
    await suite.caller.call(operations.copyDatasetRows, {
      params: source.params,
      body: { to: { datasetSlug: target.slug }, selection: { mode: "all" } },
    });
    expect(await onTarget.versions(1)).toEqual([1]);
  });
});
