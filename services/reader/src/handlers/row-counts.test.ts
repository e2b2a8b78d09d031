import { type Cell, type DatasetRow, operations, type Page } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import {
  type DatasetFixture,
  deleteRows,
  insertRows,
  makeDataset,
  removeColumn,
  updateRow,
} from "@svc/testing/datasets";
import { beforeAll, describe, expect, test } from "vitest";
import { failure, readerSuite } from "../test-support";

/** What the test keeps of a row, to know the right count of each version. */
interface ModelRow {
  input: string;
  expectedOutput: Cell;
  source: string;
}

/** A deterministic sequence of numbers in [0, 1), so that a failure repeats. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe.each(availableBackends())("countDatasetRows (%s)", (backendName) => {
  const reader = readerSuite(backendName);

  const count = async (dataset: DatasetFixture, query: Record<string, string | string[]> = {}) =>
    reader.call(operations.countDatasetRows, { params: { datasetSlug: dataset.slug }, query });

  describe("a dataset edited many times", () => {
    let dataset: DatasetFixture;
    /** The rows at each version, by version. */
    const snapshots = new Map<number, Map<string, ModelRow>>();
    /** The filters counted, and what lets a model row through each. */
    const filters: [Record<string, string | string[]>, (row: ModelRow) => boolean][] = [
      [{ missing: "expectedOutput" }, (row) => row.expectedOutput === null],
      [{ present: "expectedOutput" }, (row) => row.expectedOutput !== null],
      [{ search: "needle" }, (row) => row.input.includes("needle")],
      [
        { missing: "expectedOutput", where: 'metadata.source="prod"' },
        (row) => row.expectedOutput === null && row.source === "prod",
      ],
    ];
    const expected = (version: number, matches: (row: ModelRow) => boolean) =>
      [...(snapshots.get(version)?.values() ?? [])].filter(matches).length;

    beforeAll(async () => {
      dataset = await makeDataset(reader.db, reader.project);
      snapshots.set(0, new Map());
    });

    const seedOf = (id: string, row: ModelRow) => ({
      id,
      input: row.input,
      expectedOutput: row.expectedOutput,
      metadata: { source: row.source },
    });

    test("follows every edit exactly: inserts, edits that fill or clear a cell, deletions", async () => {
      const next = random(7);
      const rows = new Map<string, ModelRow>();
      const randomRow = (): ModelRow => ({
        input: next() < 0.3 ? `a needle ${Math.floor(next() * 100)}` : `hay ${Math.floor(next() * 100)}`,
        expectedOutput: next() < 0.5 ? null : "an answer",
        source: next() < 0.5 ? "prod" : "test",
      });
      let serial = 0;
      for (let step = 0; step < 40; step++) {
        const ids = [...rows.keys()];
        const pick = () => ids[Math.floor(next() * ids.length)] ?? "";
        const roll = next();
        let version: number;
        if (ids.length < 5 || roll < 0.3) {
          const added = Array.from({ length: 1 + Math.floor(next() * 4) }, () => [
            `r${serial++}`,
            randomRow(),
          ]) as [string, ModelRow][];
          version = await insertRows(
            reader.db,
            dataset,
            added.map(([id, row]) => seedOf(id, row)),
          );
          for (const [id, row] of added) rows.set(id, row);
        } else if (roll < 0.8) {
          const id = pick();
          const row = rows.get(id) as ModelRow;
          const changed = { ...row, expectedOutput: row.expectedOutput === null ? "filled" : null };
          version = await updateRow(reader.db, dataset, id, { expectedOutput: changed.expectedOutput });
          rows.set(id, changed);
        } else {
          const gone = [...new Set([pick(), pick()])];
          version = await deleteRows(reader.db, dataset, gone);
          for (const id of gone) rows.delete(id);
        }
        snapshots.set(version, new Map(rows));
        // Asked after each edit, as a page that follows the dataset does: each count follows the last.
        for (const [query, matches] of filters) {
          expect(await count(dataset, query), JSON.stringify({ step, query })).toEqual({
            count: expected(version, matches),
            version,
          });
        }
      }
    });

    test("counts any earlier version, in any order, from the counts it knows", async () => {
      const versions = [...snapshots.keys()];
      const next = random(11);
      const order = versions.map((version) => [next(), version] as const).sort(([a], [b]) => a - b);
      for (const [, version] of order) {
        for (const [query, matches] of filters) {
          expect(await count(dataset, { ...query, version: String(version) })).toEqual({
            count: expected(version, matches),
            version,
          });
        }
        expect((await count(dataset, { version: String(version) })).count).toBe(snapshots.get(version)?.size);
      }
    });

    test("agrees with the rows a list pages through", async () => {
      let listed = 0;
      let cursor: string | null = null;
      do {
        const page: Page<DatasetRow> = await reader.call(operations.listDatasetRows, {
          params: { datasetSlug: dataset.slug },
          query: { missing: "expectedOutput", limit: "7", ...(cursor ? { cursor } : {}) },
        });
        listed += page.items.length;
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect((await count(dataset, { missing: "expectedOutput" })).count).toBe(listed);
    });
  });

  test("counts the whole version without filters, and nothing at version 0", async () => {
    const dataset = await makeDataset(reader.db, reader.project);
    expect(await count(dataset)).toEqual({ count: 0, version: 0 });
    await insertRows(reader.db, dataset, [{ id: "a" }, { id: "b" }, { id: "c" }]);
    await deleteRows(reader.db, dataset, ["b"]);
    expect(await count(dataset)).toEqual({ count: 2, version: 2 });
    expect(await count(dataset, { version: "1" })).toEqual({ count: 3, version: 1 });
    expect(await count(dataset, { version: "0", missing: "expectedOutput" })).toEqual({
      count: 0,
      version: 0,
    });
  });

  test("a search counts only the visible cells: removing a column changes its count, with no new version", async () => {
    const dataset = await makeDataset(reader.db, reader.project, { customColumns: 1 });
    const [note = ""] = dataset.custom;
    await insertRows(reader.db, dataset, [
      { id: "a", input: "plain", custom: { [note]: "the word is marigold" } },
      { id: "b", input: "marigold in the input" },
    ]);
    expect(await count(dataset, { search: "marigold" })).toEqual({ count: 2, version: 1 });
    await removeColumn(reader.db, dataset, note);
    expect(await count(dataset, { search: "marigold" })).toEqual({ count: 1, version: 1 });
  });

  test("refuses a version not yet made, and an unknown or removed column, as the list does", async () => {
    const dataset = await makeDataset(reader.db, reader.project, { customColumns: 1 });
    const [gone = ""] = dataset.custom;
    await removeColumn(reader.db, dataset, gone);
    const unknown = await failure(count(dataset, { missing: "nope" }));
    expect(unknown.code).toBe("unknown_column");
    expect(unknown.message).toContain('"nope"');
    expect((await failure(count(dataset, { present: gone }))).code).toBe("unknown_column");
    const missing = await failure(count(dataset, { version: "3" }));
    expect(missing.code).toBe("not_found");
    expect(missing.message).toBe("Version 3 does not exist");
  });
});
