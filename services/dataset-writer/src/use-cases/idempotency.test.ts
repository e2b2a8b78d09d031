import { operations } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { createDataset, failure, insertRows, writerSuite } from "../test-support";

describe.each(availableBackends())("idempotency keys (%s)", (backendName) => {
  const suite = writerSuite(backendName);
  let params: { datasetSlug: string };
  let datasetId: string;

  beforeAll(async () => {
    ({ params, id: datasetId } = await createDataset(suite.caller));
    await insertRows(suite.caller, params, [{ id: "r1", input: 1 }]);
  });

  const versionCount = async () =>
    (
      await suite.backend.database.db
        .selectFrom("dataset_versions")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("dataset_id", "=", datasetId)
        .executeTakeFirstOrThrow()
    ).n;

  it("answers a retried edit with the first answer and makes one version", async () => {
    const before = Number(await versionCount());
    const edit = { params: { ...params, rowId: "r1" }, body: { output: "once" } };
    const first = await suite.caller.call(operations.updateDatasetRow, edit, "key-edit-1");
    const again = await suite.caller.call(operations.updateDatasetRow, edit, "key-edit-1");
    expect(again).toEqual(first);
    expect(Number(await versionCount())).toBe(before + 1);
  });

  it("gives concurrent requests with one key one version and one answer", async () => {
    const before = Number(await versionCount());
    const edit = { params: { ...params, rowId: "r1" }, body: { output: "racing" } };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => suite.caller.call(operations.updateDatasetRow, edit, "key-race")),
    );
    expect(new Set(answers.map((a) => a.versionId)).size).toBe(1);
    expect(Number(await versionCount())).toBe(before + 1);
  });

  it("returns the same generated row ids when an insert is retried", async () => {
    const insert = { params, body: { rows: [{ input: "a" }, { input: "b" }] } };
    const first = await suite.caller.call(operations.insertDatasetRows, insert, "key-insert");
    const again = await suite.caller.call(operations.insertDatasetRows, insert, "key-insert");
    expect(again.rowIds).toEqual(first.rowIds);
  });

  it("refuses a key reused with a different body, changing nothing", async () => {
    await suite.caller.call(
      operations.updateDatasetRow,
      { params: { ...params, rowId: "r1" }, body: { output: 1 } },
      "key-x",
    );
    const before = Number(await versionCount());
    const error = await failure(
      suite.caller.call(
        operations.updateDatasetRow,
        { params: { ...params, rowId: "r1" }, body: { output: 2 } },
        "key-x",
      ),
    );
    expect(error.code).toBe("idempotency_key_reused");
    expect(Number(await versionCount())).toBe(before);
  });

  it("does not remember a request that failed, so it can be retried after a fix", async () => {
    const edit = { params: { ...params, rowId: "later" }, body: { output: 1 } };
    expect((await failure(suite.caller.call(operations.updateDatasetRow, edit, "key-later"))).code).toBe(
      "not_found",
    );
    await suite.caller.call(operations.insertDatasetRows, {
      params,
      body: { rows: [{ id: "later", input: 0 }] },
    });
    expect((await suite.caller.call(operations.updateDatasetRow, edit, "key-later")).version).toBeGreaterThan(
      0,
    );
  });
});
