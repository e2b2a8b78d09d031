import { randomUUID } from "node:crypto";
import { callOperation } from "@svc/bus";
import { type DomainError, operations } from "@svc/contracts";
import { liveRowsAt } from "@svc/db";
import { availableBackends } from "@svc/testing";
import { describe, expect, it } from "vitest";
import {
  deleteStagedRows,
  endReusedTombstones,
  finishImport,
  insertImport,
  insertStagedPiece,
  listAbandonedHolds,
  markPendingImport,
  type StagedRow,
  stageRows,
  undoPendingImport,
} from "../repositories/imports";
import {
  auditDataset,
  createDataset,
  currentVersion,
  failure,
  insertRows,
  rowRevisions,
  writerSuite,
} from "../test-support";

/*
 * The rules of an import written in pieces (decision 0055), held still half-way: the pieces are
 * driven here one by one, as the import's job drives them, so that what others see and may do
 * meanwhile is checked at a known point. The job itself is tested end to end in e2e/specs/imports.
 */
describe.each(availableBackends())("an import written in pieces (%s)", (backendName) => {
  const suite = writerSuite(backendName);
  const db = () => suite.backend.database.db;

  const staged = (seq: number, rowId: string): StagedRow => ({
    seq,
    line: seq + 1,
    rowId,
    cells: { input: `in ${rowId}` },
    custom: {},
  });

  /**
   * A dataset at version 2 (rows "kept" and "gone" inserted, "gone" deleted) whose import of five
   * rows, "gone" among them again, has written the first three under version 3.
   */
  async function halfWritten() {
    const dataset = await createDataset(suite.caller);
    await insertRows(suite.caller, dataset.params, [
      { id: "kept", input: "a" },
      { id: "gone", input: "b" },
    ]);
    await suite.caller.call(operations.deleteDatasetRows, {
      params: dataset.params,
      body: { selection: { mode: "selected", rowIds: ["gone"] } },
    });
    const importId = `imp_${randomUUID()}`;
    await insertImport(db(), {
      id: importId,
      organizationId: suite.caller.context.organizationId,
      datasetId: dataset.id,
      idempotencyKey: null,
      format: "jsonl",
      mode: "insert",
    });
    await stageRows(db(), importId, [
      staged(1, "new-1"),
      staged(2, "gone"),
      staged(3, "new-3"),
      staged(4, "new-4"),
      staged(5, "new-5"),
    ]);
    const hold = await db()
      .transaction()
      .execute(async (trx) => {
        const mark = await markPendingImport(trx, dataset.id, importId);
        await endReusedTombstones(trx, importId, dataset.id, mark.version);
        return mark;
      });
    expect(hold).toMatchObject({ heldBy: null, version: 3 });
    const piece = { importId, datasetId: dataset.id, version: hold.version, base: hold.startedAt };
    expect(await insertStagedPiece(db(), { ...piece, fromSeq: 1, toSeq: 4 })).toBe(3);
    return { dataset, importId, piece };
  }

  /** Calls an operation as the suite's caller, whose requester stops waiting after `timeoutMs`. */
  const callWithin = (timeoutMs: number, op: Parameters<typeof callOperation>[1], input: object) =>
    callOperation(
      suite.backend.bus,
      op,
      suite.caller.context,
      {
        params: { projectSlug: suite.caller.projectSlug },
        query: {},
        body: undefined,
        headers: {},
        ...input,
      },
      { timeoutMs },
    );

  /** The live rows of the dataset at its current version, as the reader lists them (see liveRowsAt). */
  const listed = async (datasetId: string) => {
    const rows = await liveRowsAt(db(), datasetId, await currentVersion(suite.backend, datasetId))
      .select("r.row_id")
      .orderBy("r.row_id")
      .execute();
    return rows.map((row) => row.row_id);
  };

  it("writes its rows under a version nobody sees, refuses other changes of the dataset, and lets other datasets change", async () => {
    const { dataset, importId } = await halfWritten();
    expect(await currentVersion(suite.backend, dataset.id)).toBe(2);
    // The tombstone of "gone" is ended at the coming version: at 2 the row still reads as deleted.
    expect(
      (await rowRevisions(suite.backend, dataset.id, "gone")).map((r) => [r.version_from, r.version_to]),
    ).toEqual([
      [1, 2],
      [2, 3],
      [3, null],
    ]);

    // Another change of the dataset waits for the import's version, and is refused, naming the
    // import, shortly before its requester would stop waiting: nothing of it written.
    const started = Date.now();
    const edit = (await failure(
      callWithin(1_800, operations.updateDatasetRow, {
        params: { projectSlug: suite.caller.projectSlug, ...dataset.params, rowId: "kept" },
        body: { output: "meanwhile" },
      }),
    )) as DomainError;
    expect(edit.code).toBe("conflict");
    expect(edit.message).toContain(`import "${importId}"`);
    expect(edit.details).toEqual({ importId });
    expect(Date.now() - started).toBeLessThan(1_800);
    for (const op of [operations.insertDatasetRows, operations.updateDatasetRows] as const) {
      const body =
        op === operations.insertDatasetRows
          ? { rows: [{ id: "other", input: "x" }] }
          : { edits: [{ rowId: "kept", output: "batch" }] };
      const refused = (await failure(
        callWithin(1_100, op, { params: { projectSlug: suite.caller.projectSlug, ...dataset.params }, body }),
      )) as DomainError;
      expect(refused.details).toEqual({ importId });
    }
    expect(await currentVersion(suite.backend, dataset.id)).toBe(2);

    // Readers of the current version see it as it was (the reader's own tests: pending-import.test.ts).
    expect(await listed(dataset.id)).toEqual(["kept"]);

    // A second import of the same dataset is told which one holds it.
    const second = await db()
      .transaction()
      .execute((trx) => markPendingImport(trx, dataset.id, `imp_${randomUUID()}`));
    expect(second.heldBy).toBe(importId);

    // Another dataset is no business of the import's.
    const other = await createDataset(suite.caller);
    await insertRows(suite.caller, other.params, [{ id: "o", input: "o" }]);
    await suite.caller.call(operations.updateDatasetRow, {
      params: { ...other.params, rowId: "o" },
      body: { output: "free" },
    });
    expect(await currentVersion(suite.backend, other.id)).toBe(2);
    await undoPendingImport(db(), dataset.id, importId);
  });

  it("is undone whole: its rows gone, the tombstone it ended live again, the dataset free and gapless", async () => {
    const { dataset, importId, piece } = await halfWritten();
    await undoPendingImport(db(), dataset.id, importId);
    expect(await listed(dataset.id)).toEqual(["kept"]);
    expect(
      (await rowRevisions(suite.backend, dataset.id, "gone")).map((r) => [r.version_from, r.version_to]),
    ).toEqual([
      [1, 2],
      [2, null],
    ]);
    expect(await rowRevisions(suite.backend, dataset.id, "new-1")).toEqual([]);
    // A piece written after the undo writes nothing: the dataset is no longer the import's.
    expect(await insertStagedPiece(db(), { ...piece, fromSeq: 4, toSeq: 6 })).toBe(-1);
    expect(await rowRevisions(suite.backend, dataset.id, "new-4")).toEqual([]);
    // Undone twice, nothing more happens.
    await undoPendingImport(db(), dataset.id, importId);
    await suite.caller.call(operations.updateDatasetRow, {
      params: { ...dataset.params, rowId: "kept" },
      body: { output: "after" },
    });
    expect(await currentVersion(suite.backend, dataset.id)).toBe(3);
    await auditDataset(suite.backend, dataset.id);
  });

  it("is found and undone by the sweep once its job failed without undoing it", async () => {
    const { dataset, importId } = await halfWritten();
    await finishImport(
      db(),
      importId,
      { state: "failed", error: { code: "service_unavailable", error: "stopped" } },
      { bytesRead: 10, rowsRead: 5 },
    );
    const holds = await listAbandonedHolds(db());
    expect(holds).toContainEqual({ datasetId: dataset.id, importId });
    for (const hold of holds) await undoPendingImport(db(), hold.datasetId, hold.importId);
    expect(await listAbandonedHolds(db())).toEqual([]);
    expect(await listed(dataset.id)).toEqual(["kept"]);
    await auditDataset(suite.backend, dataset.id);
  });

  it("deletes its staged rows a piece at a time, all of them", async () => {
    const importId = `imp_${randomUUID()}`;
    const rows = Array.from({ length: 12_345 }, (_, i) => staged(i + 1, `r${i}`));
    for (let i = 0; i < rows.length; i += 2_000) await stageRows(db(), importId, rows.slice(i, i + 2_000));
    const count = async () =>
      Number(
        (
          await db()
            .selectFrom("import_rows")
            .select((eb) => eb.fn.countAll<string>().as("n"))
            .where("import_id", "=", importId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count()).toBe(12_345);
    await deleteStagedRows(db(), importId);
    expect(await count()).toBe(0);
  });
});
