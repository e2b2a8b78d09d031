import { operations } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { describe, expect, it } from "vitest";
import {
  auditDataset,
  createDataset,
  currentVersion,
  failure,
  insertRows,
  rowRevisions,
  versionRecord,
  writerSuite,
} from "../test-support";

describe.each(availableBackends())("batch row edits (%s)", (backendName) => {
  const suite = writerSuite(backendName);

  /** A dataset with one custom column and `rows` rows r0, r1, … */
  async function makeDataset(rows = 3) {
    const { params, id, columns } = await createDataset(suite.caller, ["Label"]);
    const [label = ""] = columns;
    await insertRows(
      suite.caller,
      params,
      Array.from({ length: rows }, (_, i) => ({
        id: `r${i}`,
        input: { q: i },
        output: `out ${i}`,
        custom: { [label]: "old" },
      })),
    );
    return { params, id, label };
  }

  const edit = (params: Record<string, string>, edits: unknown[], key?: string) =>
    suite.caller.call(operations.updateDatasetRows, { params, body: { edits } }, key);

  /** The dataset's live rows as stored, by row id. */
  async function rows(datasetId: string) {
    const stored = await suite.backend.database.db
      .selectFrom("dataset_rows")
      .selectAll()
      .where("dataset_id", "=", datasetId)
      .orderBy("row_id")
      .execute();
    return Object.fromEntries(stored.map((row) => [row.row_id, row]));
  }

  it("applies every edit as one version that counts the rows it changed", async () => {
    const { params, id, label } = await makeDataset();
    const result = await edit(params, [
      { rowId: "r0", expectedOutput: "out 0" },
      { rowId: "r1", custom: { [label]: "new" }, metadata: { by: "batch" } },
      { rowId: "r2", output: null },
    ]);
    expect(result).toMatchObject({ version: 2, rowsUpdated: 3 });
    expect(result.versionId).toEqual(expect.any(String));

    const after = await rows(id);
    expect(after.r0).toMatchObject({ expected_output: "out 0", output: "out 0", version: 2 });
    expect(after.r1).toMatchObject({ metadata: { by: "batch" }, custom: { [label]: "new" } });
    expect(after.r2?.output).toBeNull();

    expect(await versionRecord(suite.backend, id, 2)).toEqual({
      operation: "update",
      rows_updated: 3,
      rows_inserted: 0,
      rows_deleted: 0,
    });
    expect(await rowRevisions(suite.backend, id, "r1")).toEqual([
      { version_from: 1, version_to: 2, deleted: false },
      { version_from: 2, version_to: null, deleted: false },
    ]);
    await auditDataset(suite.backend, id);
  });

  it("writes only the rows whose cells change, and no version when none does", async () => {
    const { params, id, label } = await makeDataset();
    const unchanged = await edit(params, [
      { rowId: "r0", output: "out 0", custom: { [label]: "old" } },
      { rowId: "r1", input: { q: 1 } },
    ]);
    expect(unchanged).toEqual({ versionId: null, version: 1, rowsUpdated: 0 });

    const one = await edit(params, [
      { rowId: "r0", output: "out 0" },
      { rowId: "r1", output: "changed" },
    ]);
    expect(one).toMatchObject({ version: 2, rowsUpdated: 1 });
    const after = await rows(id);
    expect(after.r0?.version).toBe(1);
    expect(after.r1?.version).toBe(2);
    await auditDataset(suite.backend, id);
  });

  it("fails the whole batch on one bad edit, naming its index and row, and writes nothing", async () => {
    const { params, id, label } = await makeDataset();
    const cases: [unknown[], string, RegExp, object][] = [
      [
        [
          { rowId: "r0", output: "x" },
          { rowId: "missing", output: "y" },
        ],
        "not_found",
        /Edit 1: row "missing" not found/,
        { index: 1, rowId: "missing" },
      ],
      [
        [
          { rowId: "r0", output: "x" },
          { rowId: "r1", ifMatch: 0, output: "y" },
        ],
        "version_mismatch",
        /Edit 1: row "r1" was changed at version 1, not 0/,
        { index: 1, rowId: "r1", currentVersion: 1, expectedVersion: 0 },
      ],
      [
        [{ rowId: "r2", custom: { nope: 1 } }],
        "unknown_column",
        /Edit 0, row "r2": Unknown or removed column "nope"/,
        { index: 0, rowId: "r2", column: "nope" },
      ],
      [
        [
          { rowId: "r0", output: "x" },
          { rowId: "r1", output: "y" },
          { rowId: "r0", metadata: 1 },
        ],
        "validation_failed",
        /Edit 2 names row "r0" again \(edit 0 edits it already\)/,
        { index: 2, rowId: "r0" },
      ],
    ];
    for (const [edits, code, message, details] of cases) {
      const error = await failure(edit(params, edits));
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
      expect(error.details).toMatchObject(details);
    }
    const after = await rows(id);
    expect(
      Object.values(after).map((row) => [row.output, (row.custom as Record<string, unknown>)[label]]),
    ).toEqual([
      ["out 0", "old"],
      ["out 1", "old"],
      ["out 2", "old"],
    ]);
    expect(await currentVersion(suite.backend, id)).toBe(1);
    await auditDataset(suite.backend, id);
  });

  it("refuses a removed column, an empty edit and more than 1000 edits", async () => {
    const { params, label } = await makeDataset(1);
    await suite.caller.call(operations.deleteDatasetColumn, { params: { ...params, identifier: label } });
    expect((await failure(edit(params, [{ rowId: "r0", custom: { [label]: "x" } }]))).code).toBe(
      "unknown_column",
    );
    const empty = await failure(edit(params, [{ rowId: "r0" }]));
    expect(empty.code).toBe("validation_failed");
    expect(empty.message).toMatch(/must change at least one cell/);
    const many = Array.from({ length: 1001 }, (_, i) => ({ rowId: `r${i}`, output: i }));
    const tooMany = await failure(edit(params, many));
    expect(tooMany.code).toBe("validation_failed");
    expect(tooMany.message).toMatch(/at most 1000 edits/);
  });

  it("answers a retry with the same Idempotency-Key once", async () => {
    const { params, id } = await makeDataset(1);
    const first = await edit(params, [{ rowId: "r0", expectedOutput: "a" }], "batch-key-1");
    const again = await edit(params, [{ rowId: "r0", expectedOutput: "a" }], "batch-key-1");
    expect(again).toEqual(first);
    const other = await failure(edit(params, [{ rowId: "r0", expectedOutput: "b" }], "batch-key-1"));
    expect(other.code).toBe("idempotency_key_reused");
    await auditDataset(suite.backend, id);
  });

  it("races single edits of the same rows without a lost update or a version gap", async () => {
    const { params, id, label } = await makeDataset(20);
    const work: Promise<unknown>[] = [];
    for (let round = 0; round < 10; round++) {
      work.push(
        edit(
          params,
          Array.from({ length: 20 }, (_, i) => ({ rowId: `r${i}`, custom: { [label]: `batch ${round}` } })),
        ),
      );
      for (let i = 0; i < 20; i += 3) {
        work.push(
          suite.caller.call(operations.updateDatasetRow, {
            params: { ...params, rowId: `r${i}` },
            body: { metadata: { single: round } },
          }),
        );
      }
    }
    await Promise.all(work);
    const after = await rows(id);
    // Every row saw the batches; the rows edited one by one kept those edits too.
    for (let i = 0; i < 20; i++) {
      const row = after[`r${i}`];
      expect((row?.custom as Record<string, unknown> | undefined)?.[label]).toMatch(/^batch \d$/);
      if (i % 3 === 0) expect(row?.metadata).toEqual({ single: expect.any(Number) });
    }
    // 1 to insert the rows, 10 batches, 7 single edits in each of 10 rounds.
    expect(await currentVersion(suite.backend, id)).toBe(1 + 10 + 70);
    await auditDataset(suite.backend, id);
  });
});
