import { builtinFields } from "@svc/contracts";
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type RawBuilder,
  sql,
} from "kysely";
import { describe, expect, it } from "vitest";
import {
  cellColumns,
  cellList,
  cellsOf,
  cellsSet,
  insertRevisions,
  isValidAt,
  patchedCells,
  rowCellsOf,
  sourceRow,
  storedColumnOf,
} from "./revisions";
import type { Database } from "./schema";

/** Compiles a piece for PostgreSQL, as the services do, without a database. */
const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (kysely) => new PostgresIntrospector(kysely),
  },
});
const compiled = (piece: RawBuilder<unknown>) => piece.compile(db).sql.replace(/\s+/g, " ").trim();

describe("the cell pieces of the versioning SQL", () => {
  it("lists each built-in cell's column in the contracts' order, then the custom cells", () => {
    expect(cellColumns).toEqual([...builtinFields.map((field) => storedColumnOf[field]), "custom"]);
    expect(compiled(cellList(cellsOf("r")))).toBe(cellColumns.map((name) => `r.${name}`).join(", "));
  });

  it.each(builtinFields)("patches the built-in cell %s from its field into its column", (field) => {
    const column = storedColumnOf[field];
    const set = compiled(cellsSet(patchedCells("r", { builtins: sql`p.cells`, custom: sql`p.custom` })));
    expect(set).toContain(
      `${column} = CASE WHEN p.cells ? '${field}' THEN p.cells -> '${field}' ELSE r.${column} END`,
    );
  });

  it("merges the custom cells of a patch into the row's", () => {
    const set = compiled(cellsSet(patchedCells("r", { builtins: sql`p.cells`, custom: sql`p.custom` })));
    expect(set.endsWith("custom = r.custom || p.custom")).toBe(true);
  });

  it("writes a tombstone with the cells of its source, in the columns it names", () => {
    const insert = compiled(
      insertRevisions({
        datasetId: "ds_1",
        version: 9,
        deleted: true,
        row: sourceRow("g"),
        from: sql`gone g`,
      }),
    );
    const columns = cellColumns.join(", ");
    expect(insert).toBe(
      `INSERT INTO row_revisions (dataset_id, row_id, version_from, deleted, ${columns}, created_at) ` +
        `SELECT $1, g.row_id, $2, true, ${cellColumns.map((name) => `g.${name}`).join(", ")}, g.created_at FROM gone g`,
    );
  });
});

describe("a revision read", () => {
  it("is valid at a version until it ends, unless it is a tombstone", () => {
    expect(isValidAt({ deleted: false, version_to: null }, 7)).toBe(true);
    expect(isValidAt({ deleted: false, version_to: 8 }, 7)).toBe(true);
    expect(isValidAt({ deleted: false, version_to: 7 }, 7)).toBe(false);
    expect(isValidAt({ deleted: true, version_to: null }, 7)).toBe(false);
  });

  it("gives its cells, a cell never written (SQL NULL) as JSON null", () => {
    const stored = { input: "q", output: null, expected_output: { a: 1 }, metadata: null, custom: null };
    expect(rowCellsOf(stored)).toEqual({
      input: "q",
      output: null,
      expectedOutput: { a: 1 },
      metadata: null,
      custom: {},
    });
    expect(Object.keys(rowCellsOf(stored))).toEqual([...builtinFields, "custom"]);
  });
});
