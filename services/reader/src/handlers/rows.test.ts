import { type DatasetRow, operations, type Page } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import {
  type DatasetFixture,
  deleteRows,
  insertRows,
  makeDataset,
  makeProject,
  type RowSeed,
  removeColumn,
  seeds,
  updateRow,
  writeHistory,
} from "@svc/testing/datasets";
import { beforeAll, describe, expect, test } from "vitest";
import { call, contextOf, failure, readerSuite } from "../test-support";

/** Gives seeds creation times: the `offset(index)`-th millisecond after a fixed instant. */
const timed = (rows: RowSeed[], offset: (index: number) => number): RowSeed[] =>
  rows.map((row, index) => ({ ...row, createdAt: new Date(Date.UTC(2023, 0, 1) + offset(index)) }));

const ids = (rows: readonly DatasetRow[]): string[] => rows.map((row) => row.rowId);

describe.each(availableBackends())("listDatasetRows (%s)", (backendName) => {
  const reader = readerSuite(backendName);

  const list = (dataset: DatasetFixture, query: Record<string, string> = {}) =>
    reader.call(operations.listDatasetRows, { params: { datasetSlug: dataset.slug }, query });

  /** Follows nextCursor to the end, keeping the query, and returns every page. */
  async function allPages(dataset: DatasetFixture, query: Record<string, string>) {
    const pages: Page<DatasetRow>[] = [];
    let cursor: string | null = null;
    do {
      const page: Page<DatasetRow> = await list(dataset, cursor ? { ...query, cursor } : query);
      pages.push(page);
      cursor = page.nextCursor;
    } while (cursor !== null && pages.length < 100);
    return pages;
  }

  test("returns each row's cells, creation time and last-changing version", async () => {
    const dataset = await makeDataset(reader.db, reader.project, { customColumns: 1 });
    const [score] = dataset.custom;
    const createdAt = new Date("2024-05-01T10:00:00.123Z");
    await insertRows(reader.db, dataset, [
      {
        id: "r1",
        input: { question: "2+2?" },
        output: "4",
        expectedOutput: 4,
        metadata: { tags: ["math"] },
        custom: { [score as string]: 0.5 },
        createdAt,
      },
    ]);
    await updateRow(reader.db, dataset, "r1", { output: "" });

    const page = await list(dataset);

    expect(page).toEqual({
      items: [
        {
          rowId: "r1",
          datasetId: dataset.id,
          input: { question: "2+2?" },
          output: "",
          expectedOutput: 4,
          metadata: { tags: ["math"] },
          custom: { [score as string]: 0.5 },
          createdAt: "2024-05-01T10:00:00.123Z",
          version: 2,
        },
      ],
      nextCursor: null,
      hasMore: false,
    });
  });

  test("lists newest first by default, oldest first with sortDirection=asc, ties broken by row id", async () => {
    const dataset = await makeDataset(reader.db, reader.project);
    const same = new Date("2024-06-01T00:00:00.000Z");
    await insertRows(reader.db, dataset, [
      { id: "a", input: 1, createdAt: new Date("2024-05-01T00:00:00.000Z") },
      { id: "t-b", input: 2, createdAt: same },
      { id: "t-a", input: 3, createdAt: same },
      { id: "t-c", input: 4, createdAt: same },
      { id: "z", input: 5, createdAt: new Date("2024-07-01T00:00:00.000Z") },
    ]);

    expect(ids((await list(dataset)).items)).toEqual(["z", "t-c", "t-b", "t-a", "a"]);
    expect(ids((await list(dataset, { sortDirection: "desc" })).items)).toEqual([
      "z",
      "t-c",
      "t-b",
      "t-a",
      "a",
    ]);
    expect(ids((await list(dataset, { sortDirection: "asc" })).items)).toEqual([
      "a",
      "t-a",
      "t-b",
      "t-c",
      "z",
    ]);
  });

  test.each(["asc", "desc"] as const)(
    "pages through 250 rows 50 at a time with every row exactly once (%s)",
    async (sortDirection) => {
      const dataset = await makeDataset(reader.db, reader.project);
      // Forty rows share one creation time, straddling a page boundary: the row id breaks the tie.
      const all = timed(seeds(250), (index) => (index >= 30 && index < 70 ? 30 : index));
      await insertRows(reader.db, dataset, all.slice(0, 100));
      await insertRows(reader.db, dataset, all.slice(100, 250));

      const pages = await allPages(dataset, { limit: "50", sortDirection });

      expect(pages.map((page) => page.items.length)).toEqual([50, 50, 50, 50, 50]);
      expect(pages.map((page) => page.hasMore)).toEqual([true, true, true, true, false]);
      expect(pages.at(-1)?.nextCursor).toBeNull();
      const oldestFirst = all.map((seed) => seed.id);
      expect(pages.flatMap((page) => ids(page.items))).toEqual(
        sortDirection === "asc" ? oldestFirst : oldestFirst.reverse(),
      );
    },
  );

  test("a cursor pins the first page's version while rows are inserted, edited and deleted", async () => {
    const dataset = await makeDataset(reader.db, reader.project);
    const all = timed(seeds(120), (index) => index);
    const version = await insertRows(reader.db, dataset, all);
    const expectedOrder = all.map((seed) => seed.id).reverse();

    const first = await list(dataset, { limit: "50" });
    expect(ids(first.items)).toEqual(expectedOrder.slice(0, 50));

    const unread = expectedOrder[80] as string;
    const read = expectedOrder[10] as string;
    // A new row created in the middle of the part not read yet, and one at the very end.
    const middle = all[20]?.createdAt ?? new Date(0);
    await insertRows(reader.db, dataset, [
      { id: "late-middle", input: "new", createdAt: new Date(middle.getTime()) },
      { id: "late-oldest", input: "new", createdAt: new Date("2000-01-01T00:00:00.000Z") },
    ]);
    await updateRow(reader.db, dataset, unread, { input: "edited after the first page" });
    await deleteRows(reader.db, dataset, [expectedOrder[90] as string, read]);

    let cursor = first.nextCursor;
    const later: DatasetRow[] = [];
    while (cursor !== null) {
      const page = await list(dataset, { limit: "50", cursor });
      later.push(...page.items);
      cursor = page.nextCursor;
    }

    expect(ids(later)).toEqual(expectedOrder.slice(50));
    expect(later.every((row) => row.version === version)).toBe(true);
    expect(later.find((row) => row.rowId === unread)?.input).toEqual({ text: `input of ${unread}` });

    const fresh = (await allPages(dataset, { limit: "200" })).flatMap((page) => page.items);
    expect(fresh).toHaveLength(120);
    expect(fresh.find((row) => row.rowId === unread)).toMatchObject({
      input: "edited after the first page",
      version: version + 2,
    });
    expect(ids(fresh)).not.toContain(read);
    expect(ids(fresh)).toContain("late-middle");
  });

  test("reads the dataset as it was at an older version after later edits and deletes", async () => {
    const dataset = await makeDataset(reader.db, reader.project, { customColumns: 1 });
    const [label] = dataset.custom as [string];
    const v1 = await insertRows(reader.db, dataset, [
      { id: "a", input: "a1", custom: { [label]: "first" } },
      { id: "b", input: "b1" },
      { id: "c", input: "c1" },
    ]);
    const v2 = await updateRow(reader.db, dataset, "b", { input: "b2", custom: { [label]: "edited" } });
    const v3 = await deleteRows(reader.db, dataset, ["a"]);
    const v4 = await insertRows(reader.db, dataset, [{ id: "d", input: "d4" }]);
    const v5 = await updateRow(reader.db, dataset, "c", { input: "c5" });

    const at = async (version: number) =>
      (await list(dataset, { version: String(version), sortDirection: "asc" })).items.map((row) => ({
        id: row.rowId,
        input: row.input,
        custom: row.custom,
        version: row.version,
      }));

    expect(await at(0)).toEqual([]);
    expect(await at(v1)).toEqual([
      { id: "a", input: "a1", custom: { [label]: "first" }, version: v1 },
      { id: "b", input: "b1", custom: {}, version: v1 },
      { id: "c", input: "c1", custom: {}, version: v1 },
    ]);
    expect(await at(v2)).toEqual([
      { id: "a", input: "a1", custom: { [label]: "first" }, version: v1 },
      { id: "b", input: "b2", custom: { [label]: "edited" }, version: v2 },
      { id: "c", input: "c1", custom: {}, version: v1 },
    ]);
    expect(await at(v3)).toEqual([
      { id: "b", input: "b2", custom: { [label]: "edited" }, version: v2 },
      { id: "c", input: "c1", custom: {}, version: v1 },
    ]);
    expect(await at(v4)).toEqual([
      { id: "b", input: "b2", custom: { [label]: "edited" }, version: v2 },
      { id: "c", input: "c1", custom: {}, version: v1 },
      { id: "d", input: "d4", custom: {}, version: v4 },
    ]);
    expect(await at(v5)).toEqual([
      { id: "b", input: "b2", custom: { [label]: "edited" }, version: v2 },
      { id: "c", input: "c5", custom: {}, version: v5 },
      { id: "d", input: "d4", custom: {}, version: v4 },
    ]);
  });

  test("pages through an older version with its cursor", async () => {
    const dataset = await makeDataset(reader.db, reader.project);
    const v1 = await insertRows(reader.db, dataset, seeds(7));
    await deleteRows(reader.db, dataset, ["row-0003"]);
    await insertRows(reader.db, dataset, seeds(3, "extra"));

    const pages = await allPages(dataset, { version: String(v1), limit: "3", sortDirection: "asc" });

    expect(pages.map((page) => ids(page.items))).toEqual([
      ["row-0000", "row-0001", "row-0002"],
      ["row-0003", "row-0004", "row-0005"],
      ["row-0006"],
    ]);
  });

  test("jumps to a position with offset, in the list's order and filters, and pages on from there", async () => {
    const dataset = await makeDataset(reader.db, reader.project);
    const v1 = await insertRows(reader.db, dataset, seeds(10));
    await deleteRows(reader.db, dataset, ["row-0001"]);

    const jump = await list(dataset, { offset: "6", limit: "2", sortDirection: "asc" });
    expect(ids(jump.items)).toEqual(["row-0007", "row-0008"]);
    const rest = await list(dataset, { cursor: jump.nextCursor as string, limit: "2", sortDirection: "asc" });
    expect(ids(rest.items)).toEqual(["row-0009"]);
    expect(rest.hasMore).toBe(false);
    // Newest first, at an older version, past the end.
    expect(ids((await list(dataset, { offset: "8", limit: "5" })).items)).toEqual(["row-0000"]);
    expect(ids((await list(dataset, { offset: "1", limit: "1", version: String(v1) })).items)).toEqual([
      "row-0008",
    ]);
    expect(await list(dataset, { offset: "50" })).toEqual({ items: [], nextCursor: null, hasMore: false });

    const both = await failure(
      list(dataset, { offset: "1", cursor: jump.nextCursor as string, sortDirection: "asc" }),
    );
    expect(both).toMatchObject({
      code: "validation_failed",
      message: "offset starts a list at a position and a cursor goes on from a page: give one or the other",
    });
    for (const offset of ["-1", "1.5", "x", "10000001"]) {
      const error = await failure(list(dataset, { offset }));
      expect(error.details).toEqual({ issues: [expect.objectContaining({ path: "query.offset" })] });
    }
  });

  test("answers 404 for a version beyond the current one", async () => {
    const dataset = await makeDataset(reader.db, reader.project);
    await insertRows(reader.db, dataset, seeds(2));

    expect(await failure(list(dataset, { version: "2" }))).toEqual({
      code: "not_found",
      message: "Version 2 does not exist",
      details: { version: 2, currentVersion: 1 },
    });
  });

  test("an empty dataset lists no rows", async () => {
    const dataset = await makeDataset(reader.db, reader.project);

    expect(await list(dataset)).toEqual({ items: [], nextCursor: null, hasMore: false });
  });

  describe("search", () => {
    let dataset: DatasetFixture;

    beforeAll(async () => {
      dataset = await makeDataset(reader.db, reader.project, { customColumns: 2 });
      const [notes, hidden] = dataset.custom as [string, string];
      await insertRows(reader.db, dataset, [
        { id: "nested", input: { messages: [{ role: "user", content: "The Quick Brown Fox" }] } },
        { id: "in-output", input: "plain", output: "a QUICK reply" },
        { id: "in-custom", input: "plain", custom: { [notes]: { deep: ["quick thinking"] } } },
        { id: "percent", input: "100% sure" },
        { id: "no-percent", input: "100 percent" },
        { id: "underscore", input: "snake_case" },
        { id: "no-underscore", input: "snakeXcase" },
        { id: "quoted", input: 'he said "hi" \\ bye' },
        { id: "in-hidden", input: "plain", custom: { [hidden]: "secret needle" } },
      ]);
      await removeColumn(reader.db, dataset, hidden);
    });

    const search = async (text: string, extra: Record<string, string> = {}) =>
      ids((await list(dataset, { search: text, sortDirection: "asc", ...extra })).items);

    test("matches text inside nested JSON and every visible cell, case-insensitively", async () => {
      expect(await search("quick")).toEqual(["nested", "in-output", "in-custom"]);
      expect(await search("qUiCk BrOwN")).toEqual(["nested"]);
    });

    test("returns an empty page when nothing matches", async () => {
      expect(await list(dataset, { search: "nothing like this" })).toEqual({
        items: [],
        nextCursor: null,
        hasMore: false,
      });
    });

    test("treats %, _ and quotes as literal characters", async () => {
      expect(await search("100%")).toEqual(["percent"]);
      expect(await search("e_c")).toEqual(["underscore"]);
      expect(await search('"hi" \\ b')).toEqual(["quoted"]);
      expect(await search("%")).toEqual(["percent"]);
    });

    test("does not match the cells of removed columns", async () => {
      expect(await search("needle")).toEqual([]);
    });

    test("matches a custom cell's value, not its column's identifier", async () => {
      const [notes] = dataset.custom as [string];
      expect(await search(notes)).toEqual([]);
      expect(await search("thinking")).toEqual(["in-custom"]);
    });

    test("finds a backslash, an underscore and a lone quote as written", async () => {
      expect(await search("\\")).toEqual(["quoted"]);
      expect(await search("_")).toEqual(["underscore"]);
      expect(await search('"')).toEqual(["quoted"]);
    });

    test("pages through the matches with the same search", async () => {
      const first = await list(dataset, { search: "quick", limit: "2", sortDirection: "asc" });
      expect(ids(first.items)).toEqual(["nested", "in-output"]);
      const second = await list(dataset, {
        search: "quick",
        limit: "2",
        sortDirection: "asc",
        cursor: first.nextCursor as string,
      });
      expect(second).toEqual({
        items: [expect.objectContaining({ rowId: "in-custom" })],
        nextCursor: null,
        hasMore: false,
      });
    });

    test("rejects a cursor used with a different search or sortDirection", async () => {
      const first = await list(dataset, { search: "quick", limit: "1", sortDirection: "asc" });
      const cursor = first.nextCursor as string;

      for (const query of [
        { search: "other", sortDirection: "asc", cursor },
        { sortDirection: "asc", cursor },
        { search: "quick", sortDirection: "desc", cursor },
        { search: "quick", cursor },
      ]) {
        const error = await failure(list(dataset, query));
        expect(error.code).toBe("validation_failed");
        expect(error.message).toMatch(
          /^Request is invalid: query\.cursor: was issued for a different search, missing, present, where or sortDirection/,
        );
        expect(error.details).toEqual({
          issues: [{ path: "query.cursor", message: expect.any(String), code: "custom" }],
        });
      }
    });
  });

  describe("search at a version", () => {
    let dataset: DatasetFixture;
    let versions: number[];

    beforeAll(async () => {
      dataset = await makeDataset(reader.db, reader.project, { customColumns: 1 });
      const [note] = dataset.custom as [string];
      versions = await writeHistory(reader.db, dataset, [
        {
          insert: [
            { id: "fox", input: { q: "The Quick Brown Fox" } },
            { id: "cafe", input: "Café crème", custom: { [note]: "Déjà vu" } },
            { id: "kept", input: "quick and kept" },
          ],
        },
        { update: "fox", patch: { input: { q: "The Slow Green Turtle" } } },
        { delete: ["cafe"] },
        { insert: [{ id: "late", input: "a quick late row" }] },
      ]);
    });

    const search = async (text: string, version?: number) =>
      ids(
        (
          await list(dataset, {
            search: text,
            sortDirection: "asc",
            ...(version === undefined ? {} : { version: String(version) }),
          })
        ).items,
      );

    test("finds the rows as they were at that version, and not those changed, deleted or added since", async () => {
      const [first, edited, deleted] = versions as [number, number, number, number];
      expect(await search("quick", first)).toEqual(["fox", "kept"]);
      expect(await search("quick", edited)).toEqual(["kept"]);
      expect(await search("turtle", first)).toEqual([]);
      expect(await search("turtle", edited)).toEqual(["fox"]);
      expect(await search("déjà", edited)).toEqual(["cafe"]);
      expect(await search("déjà", deleted)).toEqual([]);
    });

    test("finds the current rows at the current version, each with the version that last changed it", async () => {
      const [, edited, , added] = versions as [number, number, number, number];
      expect(await search("quick")).toEqual(["kept", "late"]);
      const page = await list(dataset, { search: "turtle" });
      expect(page.items).toEqual([expect.objectContaining({ rowId: "fox", version: edited })]);
      expect((await list(dataset, { search: "late" })).items).toEqual([
        expect.objectContaining({ rowId: "late", version: added }),
      ]);
    });

    test("matches accented letters in either case, and not the letters without their accents", async () => {
      const [first] = versions as [number];
      expect(await search("CAFÉ", first)).toEqual(["cafe"]);
      expect(await search("cafe", first)).toEqual([]);
    });
  });

  describe("rejects bad input with 400 validation_failed", () => {
    let dataset: DatasetFixture;
    let cursor: string;

    beforeAll(async () => {
      dataset = await makeDataset(reader.db, reader.project);
      await insertRows(reader.db, dataset, seeds(3));
      cursor = (await list(dataset, { limit: "1" })).nextCursor as string;
    });

    test.each(["0", "201", "abc", "1.5", "", " 5", "0x10"])("limit=%s", async (limit) => {
      const error = await failure(list(dataset, { limit }));
      expect(error.code).toBe("validation_failed");
      expect(error.details).toEqual({
        issues: [expect.objectContaining({ path: "query.limit" })],
      });
    });

    // "" and "0x1" once coerced to versions 0 and 1 instead of being refused.
    test.each(["-1", "two", "", "0x1", "1e0"])("version=%s", async (version) => {
      const error = await failure(list(dataset, { version }));
      expect(error).toMatchObject({
        code: "validation_failed",
        details: { issues: [expect.objectContaining({ path: "query.version" })] },
      });
    });

    test("an empty search", async () => {
      const error = await failure(list(dataset, { search: "" }));
      expect(error).toMatchObject({
        code: "validation_failed",
        message: "Request is invalid: query.search: must not be empty",
      });
    });

    test("a garbage cursor", async () => {
      for (const garbage of ["garbage", "!!!", Buffer.from("[1,2]").toString("base64url"), "eyJ9"]) {
        const error = await failure(list(dataset, { cursor: garbage }));
        expect(error).toMatchObject({
          code: "validation_failed",
          message: expect.stringMatching(
            /^Request is invalid: query\.cursor: is not a cursor this list issued/,
          ),
        });
      }
    });

    test("a tampered cursor", async () => {
      const payload = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Record<
        string,
        unknown
      >;
      const tampered = Buffer.from(JSON.stringify({ ...payload, version: 0 })).toString("base64url");
      const truncated = cursor.slice(0, -3);

      for (const bad of [tampered, truncated]) {
        expect(await failure(list(dataset, { cursor: bad }))).toMatchObject({ code: "validation_failed" });
      }
    });

    test("another dataset's cursor", async () => {
      const other = await makeDataset(reader.db, reader.project);
      await insertRows(reader.db, other, seeds(1));

      expect(await failure(list(other, { cursor }))).toMatchObject({
        code: "validation_failed",
        message: expect.stringContaining("another dataset"),
      });
    });

    test("a version that differs from the cursor's", async () => {
      expect(await failure(list(dataset, { cursor, version: "0" }))).toMatchObject({
        code: "validation_failed",
        message: expect.stringContaining("reads version 1, not version 0"),
      });
    });

    test("an unknown query parameter", async () => {
      expect(await failure(list(dataset, { sort: "name" }))).toMatchObject({ code: "validation_failed" });
    });
  });

  test("leaves out a removed built-in column's cell and a removed custom column's cell", async () => {
    const dataset = await makeDataset(reader.db, reader.project, { customColumns: 2 });
    const [kept, removed] = dataset.custom as [string, string];
    await insertRows(reader.db, dataset, [
      {
        id: "r",
        input: "i",
        output: "o",
        expectedOutput: "only in expected",
        metadata: {},
        custom: { [kept]: 1, [removed]: "only in removed" },
      },
    ]);
    await removeColumn(reader.db, dataset, "expectedOutput");
    await removeColumn(reader.db, dataset, removed);

    const [row] = (await list(dataset)).items;

    expect(row).toEqual({
      rowId: "r",
      datasetId: dataset.id,
      input: "i",
      output: "o",
      metadata: {},
      custom: { [kept]: 1 },
      createdAt: expect.any(String),
      version: 1,
    });
    expect(row).not.toHaveProperty("expectedOutput");
    expect((await list(dataset, { search: "only in" })).items).toEqual([]);
  });

  test("answers 404 for an unknown dataset and for another organisation's, alike", async () => {
    const dataset = await makeDataset(reader.db, reader.project);
    const stranger = await makeProject(reader.db);
    const theirs = await makeDataset(reader.db, stranger, { slug: "theirs" });
    await insertRows(reader.db, theirs, seeds(1));

    const unknown = await failure(list({ ...dataset, slug: "nope" }));
    expect(unknown).toEqual({
      code: "not_found",
      message: `Dataset "nope" not found in project "${reader.project.projectSlug}"`,
    });

    // The stranger's own project slug and dataset slug, asked by a key of another organisation.
    const crossed = await failure(
      call(
        reader,
        stranger,
        operations.listDatasetRows,
        { params: { datasetSlug: "theirs" } },
        contextOf(reader.project.organizationId),
      ),
    );
    expect(crossed).toEqual({
      code: "not_found",
      message: `Dataset "theirs" not found in project "${stranger.projectSlug}"`,
    });
  });

  test("refuses a request without an organisation", async () => {
    const dataset = await makeDataset(reader.db, reader.project);
    const anonymous = { organizationId: null, role: null, actor: null, requestId: "anon" };

    expect(
      await failure(
        reader.call(operations.listDatasetRows, { params: { datasetSlug: dataset.slug } }, anonymous),
      ),
    ).toMatchObject({ code: "unauthenticated" });
  });
});

describe.each(availableBackends())("getDatasetRow (%s)", (backendName) => {
  const reader = readerSuite(backendName);
  let dataset: DatasetFixture;
  let versions: { inserted: number; edited: number; deleted: number; reinserted: number };

  beforeAll(async () => {
    dataset = await makeDataset(reader.db, reader.project, { customColumns: 1 });
    const [label] = dataset.custom as [string];
    const inserted = await insertRows(reader.db, dataset, [
      { id: "kept", input: "k1", custom: { [label]: "x" } },
      { id: "gone", input: "g1" },
    ]);
    const edited = await updateRow(reader.db, dataset, "kept", { input: "k2", custom: { [label]: "y" } });
    const deleted = await deleteRows(reader.db, dataset, ["gone"]);
    const reinserted = await insertRows(reader.db, dataset, [{ id: "later", input: "l" }]);
    versions = { inserted, edited, deleted, reinserted };
  });

  const get = (rowId: string, query: Record<string, string> = {}) =>
    reader.call(operations.getDatasetRow, { params: { datasetSlug: dataset.slug, rowId }, query });

  test("returns the row as it is now", async () => {
    const [label] = dataset.custom as [string];
    expect(await get("kept")).toEqual({
      rowId: "kept",
      datasetId: dataset.id,
      input: "k2",
      output: null,
      expectedOutput: null,
      metadata: null,
      custom: { [label]: "y" },
      createdAt: expect.any(String),
      version: versions.edited,
    });
  });

  test("returns the row as it was at an older version", async () => {
    const [label] = dataset.custom as [string];
    expect(await get("kept", { version: String(versions.inserted) })).toMatchObject({
      input: "k1",
      custom: { [label]: "x" },
      version: versions.inserted,
    });
    expect(await get("gone", { version: String(versions.edited) })).toMatchObject({
      input: "g1",
      version: 1,
    });
  });

  test("answers 404 for a row deleted by then, not yet created then, or unknown", async () => {
    expect(await failure(get("gone"))).toEqual({
      code: "not_found",
      message: `Row "gone" not found in dataset "${dataset.slug}"`,
    });
    expect(await failure(get("gone", { version: String(versions.deleted) }))).toEqual({
      code: "not_found",
      message: `Row "gone" not found in dataset "${dataset.slug}" at version ${versions.deleted}`,
    });
    expect(await failure(get("later", { version: String(versions.deleted) }))).toMatchObject({
      code: "not_found",
    });
    expect(await failure(get("never"))).toMatchObject({ code: "not_found" });
  });

  test("answers 404 for a version beyond the current one", async () => {
    expect(await failure(get("kept", { version: "99" }))).toMatchObject({
      code: "not_found",
      message: "Version 99 does not exist",
    });
  });
});

describe.each(availableBackends())("getDatasetRowHistory (%s)", (backendName) => {
  const reader = readerSuite(backendName);

  const history = (dataset: DatasetFixture, rowId: string, query: Record<string, string> = {}) =>
    reader.call(operations.getDatasetRowHistory, {
      params: { datasetSlug: dataset.slug, rowId },
      query,
    });

  test("lists every version of a row newest first, a deletion with null cells", async () => {
    const dataset = await makeDataset(reader.db, reader.project, { customColumns: 1 });
    const [label] = dataset.custom as [string];
    await insertRows(reader.db, dataset, [{ id: "other", input: "o" }]);
    await insertRows(reader.db, dataset, [{ id: "r", input: "v2", custom: { [label]: "a" } }]);
    await updateRow(reader.db, dataset, "other", { input: "not this row" });
    await updateRow(reader.db, dataset, "r", { custom: { [label]: "b" } });
    await deleteRows(reader.db, dataset, ["r"]);
    await insertRows(reader.db, dataset, [{ id: "r", input: "again" }]);
    const versions = await reader.call(operations.listDatasetVersions, {
      params: { datasetSlug: dataset.slug },
    });
    const versionId = (version: number) => versions.items.find((v) => v.version === version)?.versionId;
    const createdAt = (version: number) => versions.items.find((v) => v.version === version)?.createdAt;
    const actor = (version: number) => versions.items.find((v) => v.version === version)?.actor;

    const page = await history(dataset, "r");

    const empty = { output: null, expectedOutput: null, metadata: null };
    expect(page).toEqual({
      items: [
        {
          version: 6,
          versionId: versionId(6),
          createdAt: createdAt(6),
          actor: actor(6),
          operation: "insert",
          cells: { input: "again", ...empty, custom: {} },
        },
        {
          version: 5,
          versionId: versionId(5),
          createdAt: createdAt(5),
          actor: actor(5),
          operation: "delete",
          cells: null,
        },
        {
          version: 4,
          versionId: versionId(4),
          createdAt: createdAt(4),
          actor: actor(4),
          operation: "update",
          cells: { input: "v2", ...empty, custom: { [label]: "b" } },
        },
        {
          version: 2,
          versionId: versionId(2),
          createdAt: createdAt(2),
          actor: actor(2),
          operation: "insert",
          cells: { input: "v2", ...empty, custom: { [label]: "a" } },
        },
      ],
      nextCursor: null,
      hasMore: false,
    });
  });

  test("pages through a long history", async () => {
    const dataset = await makeDataset(reader.db, reader.project);
    await insertRows(reader.db, dataset, [{ id: "r", input: 0 }]);
    for (let n = 1; n <= 4; n++) await updateRow(reader.db, dataset, "r", { input: n });

    const first = await history(dataset, "r", { limit: "2" });
    const second = await history(dataset, "r", { limit: "2", cursor: first.nextCursor as string });
    const third = await history(dataset, "r", { limit: "2", cursor: second.nextCursor as string });

    expect([first, second, third].map((page) => page.items.map((entry) => entry.version))).toEqual([
      [5, 4],
      [3, 2],
      [1],
    ]);
    expect(third).toMatchObject({ hasMore: false, nextCursor: null });
    expect(await failure(history(dataset, "other", { cursor: first.nextCursor as string }))).toMatchObject({
      code: "validation_failed",
    });
  });

  test("hides removed columns' cells in every entry", async () => {
    const dataset = await makeDataset(reader.db, reader.project, { customColumns: 1 });
    const [label] = dataset.custom as [string];
    await insertRows(reader.db, dataset, [{ id: "r", input: "x", custom: { [label]: "hidden" } }]);
    await removeColumn(reader.db, dataset, label);
    await removeColumn(reader.db, dataset, "metadata");

    const [entry] = (await history(dataset, "r")).items;

    expect(entry?.cells).toEqual({ input: "x", output: null, expectedOutput: null, custom: {} });
  });

  test("answers 404 for a row that never existed", async () => {
    const dataset = await makeDataset(reader.db, reader.project);

    expect(await failure(history(dataset, "ghost"))).toEqual({
      code: "not_found",
      message: `Row "ghost" not found in dataset "${dataset.slug}"`,
    });
  });
});
