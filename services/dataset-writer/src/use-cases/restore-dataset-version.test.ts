import { operations } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { createDataset, failure, insertRows, versionRecord, writerSuite } from "../test-support";

describe.each(availableBackends())("restoring a version (%s)", (backendName) => {
  const suite = writerSuite(backendName);

  async function history() {
    const { params, id, columns } = await createDataset(suite.caller, ["score"]);
    const [c = ""] = columns;
    await insertRows(suite.caller, params, [
      { id: "r1", input: "a", custom: { [c]: 1 } },
      { id: "r2", input: "b" },
    ]); // v1
    await suite.caller.call(operations.updateDatasetRow, {
      params: { ...params, rowId: "r1" },
      body: { input: "a2" },
    }); // v2
    await suite.caller.call(operations.deleteDatasetRows, {
      params,
      body: { selection: { mode: "selected", rowIds: ["r2"] } },
    }); // v3
    await insertRows(suite.caller, params, [{ id: "r3", input: "c" }]); // v4
    await suite.caller.call(operations.updateDatasetRow, {
      params: { ...params, rowId: "r1" },
      body: { custom: { [c]: 2 } },
    }); // v5
    return { params, id };
  }

  const liveRows = (datasetId: string) =>
    suite.backend.database.db
      .selectFrom("dataset_rows")
      .select(["row_id", "input", "output", "expected_output", "metadata", "custom", "created_at"])
      .where("dataset_id", "=", datasetId)
      .orderBy("row_id")
      .execute();

  const rowsAt = (datasetId: string, version: number) =>
    suite.backend.database.db
      .selectFrom("row_revisions")
      .select(["row_id", "input", "output", "expected_output", "metadata", "custom", "created_at"])
      .where("dataset_id", "=", datasetId)
      .where("version_from", "<=", version)
      .where((eb) => eb.or([eb("version_to", "is", null), eb("version_to", ">", version)]))
      .where("deleted", "=", false)
      .orderBy("row_id")
      .execute();

  it("makes the dataset equal to the old version in one new version, touching only rows that differ", async () => {
    const { params, id } = await history();
    const expected = await rowsAt(id, 1);
    const result = await suite.caller.call(operations.restoreDatasetVersion, {
      params: { ...params, version: "1" },
    });
    expect(result.version).toBe(6);
    expect(await liveRows(id)).toEqual(expected);
    expect(await versionRecord(suite.backend, id, 6)).toEqual({
      operation: "restore",
      rows_inserted: 1,
      rows_updated: 1,
      rows_deleted: 1,
    });
    const revisionsAt6 = await suite.backend.database.db
      .selectFrom("row_revisions")
      .select(["row_id", "deleted"])
      .where("dataset_id", "=", id)
      .where("version_from", "=", 6)
      .orderBy("row_id")
      .execute();
    expect(revisionsAt6).toEqual([
      { row_id: "r1", deleted: false },
      { row_id: "r2", deleted: false },
      { row_id: "r3", deleted: true },
    ]);
    // And back again: restoring version 5 brings the later state back.
    await suite.caller.call(operations.restoreDatasetVersion, { params: { ...params, version: "5" } });
    expect(await liveRows(id)).toEqual(await rowsAt(id, 5));
  });

  it("writes revisions only for rows that differ: not for an unchanged row, nor one changed and changed back", async () => {
    const { params, id } = await createDataset(suite.caller);
    const edit = (rowId: string, input: string) =>
      suite.caller.call(operations.updateDatasetRow, { params: { ...params, rowId }, body: { input } });
    await insertRows(suite.caller, params, [
      { id: "same", input: "s" },
      { id: "back", input: "b" },
      { id: "moved", input: "m" },
    ]); // v1
    await edit("back", "b2"); // v2
    await edit("back", "b"); // v3: as it was at v1 again
    await edit("moved", "m2"); // v4
    const revisions = () =>
      suite.backend.database.db
        .selectFrom("row_revisions")
        .select(["row_id", "version_from", "version_to", "deleted", "input"])
        .where("dataset_id", "=", id)
        .orderBy("row_id")
        .orderBy("version_from")
        .execute();
    const before = await revisions();

    const result = await suite.caller.call(operations.restoreDatasetVersion, {
      params: { ...params, version: "1" },
    });
    expect(result.version).toBe(5);
    expect(await liveRows(id)).toEqual(await rowsAt(id, 1));
    const record = await versionRecord(suite.backend, id, 5);
    expect(record).toEqual({ operation: "restore", rows_inserted: 0, rows_updated: 1, rows_deleted: 0 });
    const back = [
      { row_id: "back", version_from: 1, version_to: 2, deleted: false, input: "b" },
      { row_id: "back", version_from: 2, version_to: 3, deleted: false, input: "b2" },
      { row_id: "back", version_from: 3, version_to: null, deleted: false, input: "b" },
    ];
    const same = [{ row_id: "same", version_from: 1, version_to: null, deleted: false, input: "s" }];
    const moved = [
      { row_id: "moved", version_from: 1, version_to: 4, deleted: false, input: "m" },
      { row_id: "moved", version_from: 4, version_to: null, deleted: false, input: "m2" },
    ];
    expect(before).toEqual([...back, ...moved, ...same]);
    // Exactly one revision written (moved's, from 5) and one ended (moved's live one, at 5); the
    // unchanged row and the row changed back keep theirs untouched.
    expect(await revisions()).toEqual([
      ...back,
      moved[0],
      { ...moved[1], version_to: 5 },
      { row_id: "moved", version_from: 5, version_to: null, deleted: false, input: "m" },
      ...same,
    ]);
    const versions = await suite.backend.database.db
      .selectFrom("dataset_rows")
      .select(["row_id", "version"])
      .where("dataset_id", "=", id)
      .orderBy("row_id")
      .execute();
    expect(versions).toEqual([
      { row_id: "back", version: 3 },
      { row_id: "moved", version: 5 },
      { row_id: "same", version: 1 },
    ]);
  });

  it("answers a restore of the current version 200 with that version, and creates nothing", async () => {
    const { params, id } = await history();
    const before = await liveRows(id);
    const current = await suite.backend.database.db
      .selectFrom("dataset_versions")
      .select("id")
      .where("dataset_id", "=", id)
      .where("version", "=", 5)
      .executeTakeFirstOrThrow();
    const restore = { params: { ...params, version: "5" } };
    expect(await suite.caller.callWithStatus(operations.restoreDatasetVersion, restore)).toEqual({
      status: 200,
      data: { versionId: current.id, version: 5 },
    });
    // The same through an Idempotency-Key, first call and retry alike.
    for (let i = 0; i < 2; i++) {
      expect(await suite.caller.callWithStatus(operations.restoreDatasetVersion, restore, "k-noop")).toEqual({
        status: 200,
        data: { versionId: current.id, version: 5 },
      });
    }
    expect(await liveRows(id)).toEqual(before);
    const count = await suite.backend.database.db
      .selectFrom("dataset_versions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("dataset_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(5);
    expect(
      await suite.backend.database.db
        .selectFrom("datasets")
        .select("current_version")
        .where("id", "=", id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ current_version: 5 });
  });

  it("answers a restore that makes a version 201, and its retry 201 with the same version", async () => {
    const { params } = await history();
    const restore = { params: { ...params, version: "2" } };
    const first = await suite.caller.callWithStatus(operations.restoreDatasetVersion, restore, "k-made");
    expect(first).toMatchObject({ status: 201, data: { version: 6 } });
    expect(await suite.caller.callWithStatus(operations.restoreDatasetVersion, restore, "k-made")).toEqual(
      first,
    );
  });

  it("restores version 0, the empty dataset it was created as: every row goes, in one new version", async () => {
    const { params, id } = await history();
    const result = await suite.caller.callWithStatus(operations.restoreDatasetVersion, {
      params: { ...params, version: "0" },
    });
    expect(result).toMatchObject({ status: 201, data: { version: 6 } });
    expect(await liveRows(id)).toEqual([]);
    const record = await versionRecord(suite.backend, id, 6);
    // r1 and r3 were live at 5 (r2 was deleted at 3).
    expect(record).toEqual({ operation: "restore", rows_inserted: 0, rows_updated: 0, rows_deleted: 2 });
    // The history stays: version 5 can be restored in turn.
    await suite.caller.call(operations.restoreDatasetVersion, { params: { ...params, version: "5" } });
    expect(await liveRows(id)).toEqual(await rowsAt(id, 5));
  });

  it("answers 404 for a version after the current one, changing nothing", async () => {
    const { params, id } = await history();
    const error = await failure(
      suite.caller.call(operations.restoreDatasetVersion, { params: { ...params, version: "99" } }),
    );
    expect(error.code).toBe("not_found");
    expect(error.message).toBe(
      `Version 99 does not exist; dataset "${params.datasetSlug}" has versions 0 (empty) to 5`,
    );
    expect(await liveRows(id)).toEqual(await rowsAt(id, 5));
  });

  it("answers 404 for a dataset that has no versions yet, whatever the version", async () => {
    const dataset = await createDataset(suite.caller);
    for (const version of ["0", "1"]) {
      const error = await failure(
        suite.caller.call(operations.restoreDatasetVersion, {
          params: { datasetSlug: dataset.slug, version },
        }),
      );
      expect(error.code).toBe("not_found");
      expect(error.message).toBe(
        `Dataset "${dataset.slug}" has no versions yet: there is nothing to restore`,
      );
    }
  });
});
