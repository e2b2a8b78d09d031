import { operations } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { auditDataset, createDataset, failure, insertRows, writerSuite } from "../test-support";

describe.each(availableBackends())("copying rows (%s)", (backendName) => {
  const suite = writerSuite(backendName);

  /** A dataset with custom columns of these names, their identifiers by name. */
  async function makeDataset(names: string[] = []) {
    const dataset = await createDataset(suite.caller, names);
    return { ...dataset, columns: Object.fromEntries(names.map((name, i) => [name, dataset.columns[i]])) };
  }

  /** A source with a Label and a Score column and three rows, r0 without an expected output. */
  async function makeSource() {
    const source = await makeDataset(["Label", "Score"]);
    const { Label: label, Score: score } = source.columns as { Label: string; Score: string };
    await insertRows(suite.caller, source.params, [
      { id: "r0", input: "q0", metadata: { origin: "prod" }, custom: { [label]: "a", [score]: 1 } },
      { id: "r1", input: "q1", expectedOutput: "e1", metadata: "note", custom: { [label]: "b" } },
      { id: "r2", input: "q2", expectedOutput: "e2", custom: { [score]: 3 } },
    ]);
    // Version 2 changes r1, so the copy's provenance must say version 2.
    await suite.caller.call(operations.updateDatasetRow, {
      params: { ...source.params, rowId: "r1" },
      body: { output: "o1" },
    });
    return { ...source, label, score };
  }

  async function columnsOf(datasetId: string) {
    return suite.backend.database.db
      .selectFrom("dataset_columns")
      .select(["identifier", "name"])
      .where("dataset_id", "=", datasetId)
      .where("removed_at", "is", null)
      .orderBy("position")
      .execute();
  }

  const copy = (from: Record<string, string>, body: Record<string, unknown>, key?: string) =>
    suite.caller.callWithStatus(operations.copyDatasetRows, { params: from, body }, key);

  async function stored(datasetId: string) {
    return suite.backend.database.db
      .selectFrom("dataset_rows")
      .selectAll()
      .where("dataset_id", "=", datasetId)
      .orderBy("created_at")
      .execute();
  }

  it("copies the selected rows as one version of the target, mapping custom cells by name and noting where each came from", async () => {
    const source = await makeSource();
    const target = await makeDataset(["label"]);
    const { status, data } = await copy(source.params, {
      to: { datasetSlug: target.slug },
      selection: { mode: "selected", rowIds: ["r1", "r0"] },
    });
    expect(status).toBe(201);
    expect(data).toMatchObject({ version: 1, rowsCopied: 2 });
    expect(data.rowIds).toHaveLength(2);

    const columns = await columnsOf(target.id);
    const score = columns.find((column) => column.name === "Score")?.identifier;
    expect(score).toBeDefined();
    const rows = await stored(target.id);
    expect(rows.map((row) => row.row_id)).toEqual(data.rowIds);
    const provenance = {
      projectSlug: suite.caller.projectSlug,
      datasetSlug: source.slug,
      datasetId: source.id,
      version: 2,
    };
    expect(
      rows.map(({ input, output, expected_output, metadata, custom, version }) => ({
        input,
        output,
        expected_output,
        metadata,
        custom,
        version,
      })),
    ).toEqual([
      {
        input: "q0",
        output: null,
        expected_output: null,
        metadata: { origin: "prod", copiedFrom: { ...provenance, rowId: "r0" } },
        custom: { [target.columns.label as string]: "a", [score as string]: 1 },
        version: 1,
      },
      {
        input: "q1",
        output: "o1",
        expected_output: "e1",
        metadata: { value: "note", copiedFrom: { ...provenance, rowId: "r1" } },
        custom: { [target.columns.label as string]: "b" },
        version: 1,
      },
    ]);
    await auditDataset(suite.backend, target.id);
    await auditDataset(suite.backend, source.id);
  });

  it("copies the rows a filter selects, with an explicit column map", async () => {
    const source = await makeSource();
    const target = await makeDataset(["Grade"]);
    const { data } = await copy(source.params, {
      to: { datasetSlug: target.slug },
      selection: { mode: "filter", present: ["expectedOutput"], search: "q" },
      columnMap: { [source.score]: target.columns.Grade, [source.label]: null },
    });
    expect(data.rowsCopied).toBe(2);
    const rows = await stored(target.id);
    expect(rows.map((row) => [row.input, row.custom])).toEqual([
      ["q1", {}],
      ["q2", { [target.columns.Grade as string]: 3 }],
    ]);
    const columns = await columnsOf(target.id);
    expect(columns.map((column) => column.name)).not.toContain("Label");
  });

  it("copies the rows a value filter selects", async () => {
    const source = await makeSource();
    const target = await makeDataset();
    const { data } = await copy(source.params, {
      to: { datasetSlug: target.slug },
      selection: { mode: "filter", where: ['expectedOutput="e2"', `${source.score}=3`] },
    });
    expect(data.rowsCopied).toBe(1);
    expect((await stored(target.id)).map((row) => row.input)).toEqual(["q2"]);
  });

  it("copies all rows, all but some, and nothing (no version)", async () => {
    const source = await makeSource();
    const target = await makeDataset();
    expect(
      (await copy(source.params, { to: { datasetSlug: target.slug }, selection: { mode: "all" } })).data
        .rowsCopied,
    ).toBe(3);
    const except = await copy(source.params, {
      to: { datasetSlug: target.slug },
      selection: { mode: "allExcept", rowIds: ["r0", "r1"] },
    });
    expect(except.data).toMatchObject({ version: 2, rowsCopied: 1 });
    const none = await copy(source.params, {
      to: { datasetSlug: target.slug },
      selection: { mode: "filter", search: "no such text" },
    });
    expect(none).toEqual({ status: 200, data: { versionId: null, version: 2, rowsCopied: 0, rowIds: [] } });
    await auditDataset(suite.backend, target.id);
  });

  it("refuses, writing nothing: unknown rows, an unknown target, a map to an unknown column, a filter on one", async () => {
    const source = await makeSource();
    const target = await makeDataset();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [
        { to: { datasetSlug: target.slug }, selection: { mode: "selected", rowIds: ["r0", "nope"] } },
        "not_found",
        /nope/,
      ],
      [
        { to: { datasetSlug: "no-such-set" }, selection: { mode: "all" } },
        "not_found",
        /no-such-set|not found/i,
      ],
      [
        {
          to: { datasetSlug: target.slug },
          selection: { mode: "all" },
          columnMap: { [source.label]: "zzz" },
        },
        "unknown_column",
        /"zzz"/,
      ],
      [
        { to: { datasetSlug: target.slug }, selection: { mode: "all" }, columnMap: { abc: null } },
        "unknown_column",
        /"abc"/,
      ],
      [
        { to: { datasetSlug: target.slug }, selection: { mode: "filter", missing: ["gone"] } },
        "unknown_column",
        /"gone"/,
      ],
    ];
    for (const [body, code, message] of cases) {
      const error = await failure(copy(source.params, body));
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
    }
    expect(await stored(target.id)).toEqual([]);
    // A column a failed copy would have created is not left behind either.
    const columns = await columnsOf(target.id);
    expect(columns.map((column) => column.identifier)).toEqual([
      "input",
      "output",
      "expectedOutput",
      "metadata",
    ]);
  });

  it("copies once for a retry with the same Idempotency-Key", async () => {
    const source = await makeSource();
    const target = await makeDataset();
    const body = { to: { datasetSlug: target.slug }, selection: { mode: "all" } };
    const first = await copy(source.params, body, "copy-key");
    const again = await copy(source.params, body, "copy-key");
    expect(again.data).toEqual(first.data);
    expect(await stored(target.id)).toHaveLength(3);
  });
});
