import { type DatasetRow, operations, type Page } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { type DatasetFixture, insertRows, makeDataset, removeColumn, updateRow } from "@svc/testing/datasets";
import { beforeAll, describe, expect, test } from "vitest";
import { failure, readerSuite } from "../test-support";

const ids = (rows: readonly DatasetRow[]): string[] => rows.map((row) => row.rowId).sort();

describe.each(availableBackends())("listDatasetRows with missing and present (%s)", (backendName) => {
  const reader = readerSuite(backendName);
  let dataset: DatasetFixture;
  let topic: string;
  let level: string;

  beforeAll(async () => {
    dataset = await makeDataset(reader.db, reader.project, { customColumns: 2 });
    [topic = "", level = ""] = dataset.custom;
    // Version 1: four rows, with expected outputs and custom cells set, null, absent, or falsy but set.
    await insertRows(reader.db, dataset, [
      { id: "a", input: "2+2?", expectedOutput: "4", custom: { [topic]: "math" } },
      { id: "b", input: "capital of France?", expectedOutput: null, custom: { [topic]: null } },
      { id: "c", input: "hello", custom: { [level]: 0 } },
      { id: "d", input: "empty answer", expectedOutput: "", custom: { [topic]: "chat", [level]: false } },
    ]);
    // Version 2: "c" gets its expected output.
    await updateRow(reader.db, dataset, "c", { expectedOutput: { text: "hi" } });
  });

  const list = (query: Record<string, string | string[]>) =>
    reader.call(operations.listDatasetRows, {
      params: { datasetSlug: dataset.slug },
      query,
    }) as Promise<Page<DatasetRow>>;

  test("missing=expectedOutput finds the rows whose expected output is absent or null, not empty", async () => {
    expect(ids((await list({ missing: "expectedOutput" })).items)).toEqual(["b"]);
    expect(ids((await list({ present: "expectedOutput" })).items)).toEqual(["a", "c", "d"]);
  });

  test('treats a custom cell never set like one set to null, and 0, false and "" as set', async () => {
    expect(ids((await list({ missing: topic })).items)).toEqual(["b", "c"]);
    expect(ids((await list({ present: level })).items)).toEqual(["c", "d"]);
  });

  test("combines several columns, repeated or comma-separated, with each other and with search", async () => {
    expect(ids((await list({ missing: [topic, "expectedOutput"] })).items)).toEqual(["b"]);
    expect(ids((await list({ missing: `${level},expectedOutput` })).items)).toEqual(["b"]);
    expect(ids((await list({ present: "expectedOutput", missing: topic })).items)).toEqual(["c"]);
    expect(ids((await list({ present: "expectedOutput", search: "answer" })).items)).toEqual(["d"]);
  });

  test("reads at an old version: at version 1, c still lacked its expected output", async () => {
    expect(ids((await list({ missing: "expectedOutput", version: "1" })).items)).toEqual(["b", "c"]);
    expect(ids((await list({ missing: "expectedOutput" })).items)).toEqual(["b"]);
  });

  test("pages through the matches with a cursor that must be given the same filters", async () => {
    const first = await list({ present: "input", limit: "2" });
    expect(first.items).toHaveLength(2);
    expect(first.hasMore).toBe(true);
    const second = await list({ present: "input", limit: "2", cursor: first.nextCursor ?? "" });
    expect(ids([...first.items, ...second.items])).toEqual(["a", "b", "c", "d"]);

    const error = await failure(
      list({ missing: "expectedOutput", limit: "2", cursor: first.nextCursor ?? "" }),
    );
    expect(error.code).toBe("validation_failed");
    expect(error.message).toMatch(
      /was issued for a different search, missing, present, where or sortDirection/,
    );
  });

  test("refuses an unknown or removed column with unknown_column, naming it", async () => {
    const other = await makeDataset(reader.db, reader.project, { customColumns: 1 });
    const [gone = ""] = other.custom;
    await removeColumn(reader.db, other, gone);
    for (const [query, column] of [
      [{ missing: "nope" }, "nope"],
      [{ present: `expectedOutput,${gone}` }, gone],
    ] as const) {
      const error = await failure(
        reader.call(operations.listDatasetRows, { params: { datasetSlug: other.slug }, query }),
      );
      expect(error).toMatchObject({
        code: "unknown_column",
        message: `Unknown or removed column "${column}"; list the dataset's columns to see the active identifiers`,
        details: { column },
      });
    }
  });

  test("refuses a malformed list of identifiers with validation_failed", async () => {
    for (const missing of ["", "a,,b", "expected output", "x".repeat(65), Array(21).fill("a").join(",")]) {
      const error = await failure(list({ missing }));
      expect(error.code, missing).toBe("validation_failed");
      expect(error.message).toContain("must be up to 20 column identifiers separated by commas");
    }
  });

  test("where= finds rows whose cell, or a value at a JSON path inside it, equals a JSON value", async () => {
    expect(ids((await list({ where: 'expectedOutput="4"' })).items)).toEqual(["a"]);
    expect(ids((await list({ where: 'expectedOutput.text="hi"' })).items)).toEqual(["c"]);
    expect(ids((await list({ where: `${topic}="math"` })).items)).toEqual(["a"]);
    expect(ids((await list({ where: `${level}=0` })).items)).toEqual(["c"]);
    expect(ids((await list({ where: `${level}=false` })).items)).toEqual(["d"]);
    // Several must all hold, and combine with the other filters and with an old version.
    expect(ids((await list({ where: [`${topic}="chat"`, `${level}=false`] })).items)).toEqual(["d"]);
    expect(ids((await list({ where: `${topic}="chat"`, missing: level })).items)).toEqual([]);
    expect(ids((await list({ where: 'expectedOutput.text="hi"', version: "1" })).items)).toEqual([]);
  });

  test("where= reads into arrays by index and compares numbers as numbers", async () => {
    const other = await makeDataset(reader.db, reader.project, { customColumns: 0 });
    await insertRows(reader.db, other, [
      { id: "x", input: { tags: ["a", "b"], score: 1.0 } },
      { id: "y", input: { tags: ["b"], score: 2 } },
    ]);
    const listOther = (where: string) =>
      reader.call(operations.listDatasetRows, {
        params: { datasetSlug: other.slug },
        query: { where },
      }) as Promise<Page<DatasetRow>>;
    expect(ids((await listOther('input.tags.0="b"')).items)).toEqual(["y"]);
    expect(ids((await listOther("input.score=1")).items)).toEqual(["x"]);
    expect(ids((await listOther('input={"tags":["b"],"score":2}')).items)).toEqual(["y"]);
  });

  test("refuses a malformed where= with validation_failed, and an unknown column with unknown_column", async () => {
    for (const where of ["expectedOutput", "expectedOutput=Paris", "=1", "bad column=1", "metadata..x=1"]) {
      const error = await failure(list({ where }));
      expect(error.code, where).toBe("validation_failed");
      expect(error.message, where).toMatch(/where=metadata.source="prod"/);
    }
    const unknown = await failure(list({ where: "nope=1" }));
    expect(unknown).toMatchObject({ code: "unknown_column", details: { column: "nope" } });
  });
});
