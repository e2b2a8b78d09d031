import { beforeAll, describe, expect, it } from "vitest";
import {
  type DatasetFixture,
  expectError,
  issuePaths,
  listAll,
  makeDataset,
  type Page,
  type Row,
  versionOf,
} from "../factories";
import { type Client, client } from "../http";
import { projectForSuite, targets } from "../targets";

interface Version {
  versionId: string;
  version: number;
  createdAt: string;
  operation: string;
  rowsInserted: number;
  rowsUpdated: number;
  rowsDeleted: number;
  actor: { kind: string; id: string };
}
interface DiffEntry {
  rowId: string;
  change: "added" | "removed" | "modified";
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}
interface HistoryEntry {
  version: number;
  versionId: string;
  createdAt: string;
  operation: string;
  actor: { kind: string; id: string };
  cells: Record<string, unknown> | null;
}
interface VersionResult {
  versionId: string;
  version: number;
}

/** A row's cells as diffs and histories show them. */
const cells = (
  input: unknown,
  output: unknown,
  expectedOutput: unknown,
  custom: Record<string, unknown> = {},
) => ({
  input,
  output,
  expectedOutput,
  metadata: null,
  custom,
});
/** A listed row without the fields that say when it changed, to compare contents across versions. */
const contents = ({ rowId, input, output, expectedOutput, metadata, custom }: Row) => ({
  rowId,
  input,
  output,
  expectedOutput,
  metadata,
  custom,
});

describe.each(targets())("versions, diffs, restore and history through the gateway (%s)", (_name, start) => {
  const suite = projectForSuite(start);
  /** A member key that makes every change of the history, so that each version names it. */
  let editor: Client;
  let editorKeyId: string;

  beforeAll(async () => {
    const key = await suite.api.post<{ id: string; token: string }>("/v1/api-keys", {
      name: "editor",
      role: "member",
    });
    expect(key.status).toBe(201);
    editorKeyId = key.body.id;
    editor = client(suite.target.baseUrl, key.body.token);
  });

  /**
   * v1 inserts r0-r2; v2 edits r0 (expectedOutput and a custom cell); v3 deletes r1; v4 inserts r3;
   * v5 edits r2's output. Returns each change's answer, in order.
   */
  async function makeHistory(): Promise<DatasetFixture & { results: VersionResult[] }> {
    const fixture = await makeDataset(suite.api, suite.project, { columns: 1 });
    const { base } = fixture;
    const column = fixture.columns[0] as string;
    const answers = [
      await editor.post<VersionResult>(`${base}/rows`, {
        rows: [0, 1, 2].map((i) => ({ id: `r${i}`, input: { q: i }, output: `a${i}` })),
      }),
      await editor.patch<VersionResult>(`${base}/rows/r0`, {
        expectedOutput: { answer: "4" },
        custom: { [column]: "easy" },
      }),
      await editor.delete<VersionResult>(`${base}/rows`, { selection: { mode: "selected", rowIds: ["r1"] } }),
      await editor.post<VersionResult>(`${base}/rows`, { rows: [{ id: "r3", input: { q: 3 } }] }),
      await editor.patch<VersionResult>(`${base}/rows/r2`, { output: "changed" }),
    ];
    expect(answers.map((a) => [a.status, a.body.version])).toEqual([
      [201, 1],
      [200, 2],
      [200, 3],
      [201, 4],
      [200, 5],
    ]);
    return {
      ...fixture,
      results: answers.map((a) => ({ versionId: a.body.versionId, version: a.body.version })),
    };
  }

  describe("versions", () => {
    let history: Awaited<ReturnType<typeof makeHistory>>;
    beforeAll(async () => {
      history = await makeHistory();
    });

    it("lists versions newest first, each with its operation, row counts, the dataset's rows, actor and id", async () => {
      const page = await suite.api.get<Page<Version>>(`${history.base}/versions`);
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ hasMore: false, nextCursor: null });
      const actor = { kind: "apiKey", id: editorKeyId };
      expect(page.body.items).toEqual(
        [
          { version: 5, operation: "update", rowsInserted: 0, rowsUpdated: 1, rowsDeleted: 0, rows: 3 },
          { version: 4, operation: "insert", rowsInserted: 1, rowsUpdated: 0, rowsDeleted: 0, rows: 3 },
          { version: 3, operation: "delete", rowsInserted: 0, rowsUpdated: 0, rowsDeleted: 1, rows: 2 },
          { version: 2, operation: "update", rowsInserted: 0, rowsUpdated: 1, rowsDeleted: 0, rows: 3 },
          { version: 1, operation: "insert", rowsInserted: 3, rowsUpdated: 0, rowsDeleted: 0, rows: 3 },
        ].map((expected) => ({
          ...expected,
          versionId: history.results[expected.version - 1]?.versionId,
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
          actor,
        })),
      );
    });

    it("pages through versions, each exactly once", async () => {
      const pages: number[][] = [];
      let cursor = "";
      for (;;) {
        const page = await suite.api.get<Page<Version>>(
          `${history.base}/versions?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        );
        pages.push(page.body.items.map((v) => v.version));
        if (!page.body.hasMore) break;
        cursor = page.body.nextCursor as string;
      }
      expect(pages).toEqual([[5, 4], [3, 2], [1]]);
    });

    it("reads one version as the list shows it", async () => {
      const listed = await suite.api.get<Page<Version>>(`${history.base}/versions?limit=200`);
      const one = await suite.api.get<Version>(`${history.base}/versions/3`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual(listed.body.items.find((v) => v.version === 3));
    });

    it("answers 404 for a version that does not exist and 400 for one that is not a version number", async () => {
      await expectError(suite.api.get(`${history.base}/versions/6`), 404, "not_found");
      await expectError(suite.api.get(`${history.base}/versions/0`), 404, "not_found");
      for (const bad of ["abc", "-1", "1.5"]) {
        const error = await expectError(
          suite.api.get(`${history.base}/versions/${bad}`),
          400,
          "validation_failed",
        );
        expect(issuePaths(error)).toEqual(["path.version"]);
      }
    });
  });

  describe("diff", () => {
    let history: Awaited<ReturnType<typeof makeHistory>>;
    let column: string;
    beforeAll(async () => {
      history = await makeHistory();
      column = history.columns[0] as string;
    });
    const diff = (query: string) => suite.api.get<Page<DiffEntry>>(`${history.base}/diff?${query}`);

    it("lists added, removed and modified rows cell by cell, ordered by row id", async () => {
      const answer = await diff("from=1&to=5");
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        items: [
          {
            rowId: "r0",
            change: "modified",
            before: cells({ q: 0 }, "a0", null),
            after: cells({ q: 0 }, "a0", { answer: "4" }, { [column]: "easy" }),
          },
          { rowId: "r1", change: "removed", before: cells({ q: 1 }, "a1", null), after: null },
          {
            rowId: "r2",
            change: "modified",
            before: cells({ q: 2 }, "a2", null),
            after: cells({ q: 2 }, "changed", null),
          },
          { rowId: "r3", change: "added", before: null, after: cells({ q: 3 }, null, null) },
        ],
        nextCursor: null,
        hasMore: false,
      });
    });

    it("shows exactly one version's change between adjacent versions, and nothing from a version to itself", async () => {
      const adjacent = await diff("from=2&to=3");
      expect(adjacent.body.items.map((e) => [e.rowId, e.change])).toEqual([["r1", "removed"]]);
      const same = await diff("from=4&to=4");
      expect(same.body).toEqual({ items: [], nextCursor: null, hasMore: false });
    });

    it("pages by row id, and refuses a cursor from another pair of versions", async () => {
      const first = await diff("from=0&to=5&limit=2");
      expect(first.body.items.map((e) => [e.rowId, e.change])).toEqual([
        ["r0", "added"],
        ["r2", "added"],
      ]);
      expect(first.body.hasMore).toBe(true);
      const cursor = encodeURIComponent(first.body.nextCursor as string);
      const second = await diff(`from=0&to=5&limit=2&cursor=${cursor}`);
      expect(second.body.items.map((e) => [e.rowId, e.change])).toEqual([["r3", "added"]]);
      expect(second.body).toMatchObject({ hasMore: false, nextCursor: null });
      await expectError(diff(`from=1&to=5&cursor=${cursor}`), 400, "validation_failed");
    });

    it("refuses from greater than to with 400, naming from", async () => {
      const error = await expectError(diff("from=4&to=2"), 400, "validation_failed");
      expect(error.error).toContain("from must not be greater than to");
      expect(issuePaths(error)).toEqual(["query.from"]);
    });

    it("answers 404 for a version that does not exist", async () => {
      const error = await expectError(diff("from=1&to=99"), 404, "not_found");
      expect(error.error).toContain("99");
    });

    it.each([
      ["a missing from", "to=2", "query.from"],
      ["a missing to", "from=1", "query.to"],
      ["a from that is not a number", "from=x&to=2", "query.from"],
      ["a negative to", "from=0&to=-1", "query.to"],
      ["a limit of 0", "from=1&to=2&limit=0", "query.limit"],
      ["an unknown parameter", "from=1&to=2&colour=red", "query"],
    ])("refuses %s with 400 naming it", async (_label, query, path) => {
      const error = await expectError(diff(query), 400, "validation_failed");
      expect(issuePaths(error)).toContain(path);
    });
  });

  describe("restore", () => {
    it("makes the dataset equal to the old version as one new version, read back through list-rows", async () => {
      const history = await makeHistory();
      const atOne = (
        await listAll<Row>(suite.api, `${history.base}/rows`, "version=1&sortDirection=asc")
      ).map(contents);

      const restored = await editor.post<VersionResult>(`${history.base}/versions/1/restore`);

      expect(restored.status).toBe(201);
      expect(restored.body).toEqual({ versionId: expect.stringMatching(/^[a-z0-9]{24}$/), version: 6 });
      const now = await listAll<Row>(suite.api, `${history.base}/rows`, "sortDirection=asc");
      expect(now.map(contents)).toEqual(atOne);
      expect(await versionOf(suite.api, history.base)).toBe(6);
      // Only the rows that differed got the new version: r1 came back, r0 and r2 changed back, r3 went.
      expect(Object.fromEntries(now.map((r) => [r.rowId, r.version]))).toEqual({ r0: 6, r1: 6, r2: 6 });
      const version = await suite.api.get<Version>(`${history.base}/versions/6`);
      expect(version.body).toMatchObject({
        versionId: restored.body.versionId,
        operation: "restore",
        rowsInserted: 1,
        rowsUpdated: 2,
        rowsDeleted: 1,
        actor: { kind: "apiKey", id: editorKeyId },
      });
      const diff = await suite.api.get<Page<DiffEntry>>(`${history.base}/diff?from=1&to=6`);
      expect(diff.body.items).toEqual([]);
    });

    it("changes nothing when asked to restore the current version, and answers 200 with it", async () => {
      const history = await makeHistory();
      const current = history.results[4] as VersionResult;

      const answer = await editor.post<VersionResult>(`${history.base}/versions/5/restore`);

      // Nothing was created: 200, not the 201 of a restore that made a version.
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(current);
      expect(await versionOf(suite.api, history.base)).toBe(5);
      const versions = await suite.api.get<Page<Version>>(`${history.base}/versions?limit=1`);
      expect(versions.body.items[0]?.version).toBe(5);
    });

    it("answers 404 for a version that does not exist, changing nothing", async () => {
      const history = await makeHistory();
      const error = await expectError(editor.post(`${history.base}/versions/9/restore`), 404, "not_found");
      expect(error.error).toContain("Version 9 does not exist");
      expect(await versionOf(suite.api, history.base)).toBe(5);
    });

    it("is refused to a viewer key", async () => {
      const history = await makeHistory();
      const key = await suite.api.post<{ token: string }>("/v1/api-keys", { name: "looker", role: "viewer" });
      const viewer = client(suite.target.baseUrl, key.body.token);
      await expectError(viewer.post(`${history.base}/versions/1/restore`), 403, "forbidden");
      expect(await versionOf(suite.api, history.base)).toBe(5);
    });
  });

  describe("row history", () => {
    let history: Awaited<ReturnType<typeof makeHistory>>;
    let column: string;
    beforeAll(async () => {
      history = await makeHistory();
      column = history.columns[0] as string;
      const restored = await editor.post(`${history.base}/versions/1/restore`);
      expect(restored.status).toBe(201);
    });
    const rowHistory = (rowId: string, query = "") =>
      suite.api.get<Page<HistoryEntry>>(`${history.base}/rows/${rowId}/history${query}`);
    const summary = (entries: HistoryEntry[]) => entries.map((e) => [e.version, e.operation, e.cells]);

    it("lists every version of an edited row newest first, with its cells after each", async () => {
      const answer = await rowHistory("r0");
      expect(answer.status).toBe(200);
      expect(summary(answer.body.items)).toEqual([
        [6, "restore", cells({ q: 0 }, "a0", null)],
        [2, "update", cells({ q: 0 }, "a0", { answer: "4" }, { [column]: "easy" })],
        [1, "insert", cells({ q: 0 }, "a0", null)],
      ]);
      expect(answer.body.items.map((e) => e.versionId)).toEqual([
        expect.any(String),
        history.results[1]?.versionId,
        history.results[0]?.versionId,
      ]);
      // Each entry names who made it: here the editor's key, for the edits and the restore alike.
      expect(answer.body.items.map((e) => e.actor)).toEqual(
        Array(3).fill({ kind: "apiKey", id: editorKeyId }),
      );
    });

    it("shows a deletion as null cells, and the row's return after a restore", async () => {
      const answer = await rowHistory("r1");
      expect(summary(answer.body.items)).toEqual([
        [6, "restore", cells({ q: 1 }, "a1", null)],
        [3, "delete", null],
        [1, "insert", cells({ q: 1 }, "a1", null)],
      ]);
    });

    it("pages one entry at a time", async () => {
      const first = await rowHistory("r0", "?limit=1");
      expect(first.body.items.map((e) => e.version)).toEqual([6]);
      const cursor = encodeURIComponent(first.body.nextCursor as string);
      const second = await rowHistory("r0", `?limit=1&cursor=${cursor}`);
      expect(second.body.items.map((e) => e.version)).toEqual([2]);
      expect(second.body.hasMore).toBe(true);
    });

    it("answers 404 for a row that never existed", async () => {
      await expectError(rowHistory("nope"), 404, "not_found");
    });
  });

  describe("cursors", () => {
    it("pin the version of their first page while others edit, insert and delete", async () => {
      const { base } = await makeDataset(suite.api, suite.project, { rows: 6 });
      const first = await suite.api.get<Page<Row>>(`${base}/rows?limit=2&sortDirection=asc`);
      expect(first.body.items.map((r) => r.rowId)).toEqual(["r0", "r1"]);

      // Another curator changes what the rest of the pages would show.
      expect((await editor.patch(`${base}/rows/r2`, { output: "edited" })).status).toBe(200);
      expect(
        (await editor.delete(`${base}/rows`, { selection: { mode: "selected", rowIds: ["r3"] } })).status,
      ).toBe(200);
      expect((await editor.post(`${base}/rows`, { rows: [{ id: "r9", input: "late" }] })).status).toBe(201);
      expect(await versionOf(suite.api, base)).toBe(4);

      const rest: Row[] = [];
      let cursor = first.body.nextCursor;
      while (cursor) {
        const page = await suite.api.get<Page<Row>>(
          `${base}/rows?limit=2&sortDirection=asc&cursor=${encodeURIComponent(cursor)}`,
        );
        expect(page.status).toBe(200);
        rest.push(...page.body.items);
        cursor = page.body.hasMore ? page.body.nextCursor : null;
      }
      expect(rest.map((r) => [r.rowId, r.output, r.version])).toEqual([
        ["r2", "a2", 1],
        ["r3", "a3", 1],
        ["r4", "a4", 1],
        ["r5", "a5", 1],
      ]);

      // A new list sees the edits.
      const fresh = await listAll<Row>(suite.api, `${base}/rows`, "sortDirection=asc");
      expect(fresh.map((r) => [r.rowId, r.output])).toEqual([
        ["r0", "a0"],
        ["r1", "a1"],
        ["r2", "edited"],
        ["r4", "a4"],
        ["r5", "a5"],
        ["r9", null],
      ]);
    });
  });
});
