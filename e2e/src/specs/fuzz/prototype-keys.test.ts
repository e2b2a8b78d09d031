import { describe, expect, it } from "vitest";
import { datasetSnapshot, expectError, listAll, type Row } from "../../factories";
import { datasetForSuite, targets } from "../../targets";

/** JSON keys that name JavaScript's object machinery: data like any other key, never dropped or obeyed. */
describe.each(targets())("keys named __proto__, constructor and prototype (%s)", (_name, start) => {
  const suite = datasetForSuite(start, { newOrganization: true, rows: 2, columns: 1 });

  const snapshot = () => datasetSnapshot(suite.api, suite.base);

  it.each([
    ["__proto__", '{"custom":{"__proto__":1}}'],
    ["__proto__", '{"custom":{"__proto__":{"polluted":true}}}'],
    ["constructor", '{"custom":{"constructor":{"prototype":{"polluted":true}}}}'],
    ["prototype", '{"custom":{"prototype":1}}'],
  ])(
    "refuses a row edit whose custom key is %s as unknown_column naming it, changing nothing",
    async (key, body) => {
      const before = await snapshot();
      const error = await expectError(
        suite.api.send("PATCH", `${suite.base}/rows/r0`, body),
        400,
        "unknown_column",
      );
      expect(error).toMatchObject({
        error: `Unknown or removed column "${key}"; list the dataset's columns to see the active identifiers`,
        details: { column: key },
      });
      expect(await snapshot()).toEqual(before);
    },
  );

  it("refuses __proto__ in the custom cells of an insert, a batch edit and a copy's column map", async () => {
    const before = await snapshot();
    await expectError(
      suite.api.send(
        "POST",
        `${suite.base}/rows`,
        '{"rows":[{"id":"n","input":1,"custom":{"__proto__":1}}]}',
      ),
      400,
      "unknown_column",
    );
    await expectError(
      suite.api.send("PATCH", `${suite.base}/rows`, '{"edits":[{"rowId":"r1","custom":{"__proto__":1}}]}'),
      400,
      "unknown_column",
    );
    const copy = await expectError(
      suite.api.send(
        "POST",
        `${suite.base}/rows/copy`,
        `{"to":{"datasetSlug":"${suite.base.split("/").at(-1)}"},"selection":{"mode":"all"},"columnMap":{"__proto__":null}}`,
      ),
      400,
      "unknown_column",
    );
    expect(copy.details).toMatchObject({ column: "__proto__" });
    expect(await snapshot()).toEqual(before);
  });

  it("stores a cell holding those keys exactly as sent, and gives it back on every read", async () => {
    const cell = '{"__proto__":{"polluted":true},"constructor":{"prototype":1},"list":[{"__proto__":null}]}';
    const edited = await suite.api.send<{ version: number }>(
      "PATCH",
      `${suite.base}/rows/r1`,
      `{"output":${cell}}`,
    );
    expect(edited.status).toBe(200);
    const expected = JSON.parse(cell) as unknown;
    const row = await suite.api.get<Row>(`${suite.base}/rows/r1`);
    expect(row.body.output).toEqual(expected);
    expect(Object.keys(row.body.output as object).sort()).toEqual(["__proto__", "constructor", "list"]);
    const listed = await listAll<Row>(suite.api, `${suite.base}/rows`);
    expect(listed.find((r) => r.rowId === "r1")?.output).toEqual(expected);
    const history = await suite.api.get<{ items: { cells: { output: unknown } }[] }>(
      `${suite.base}/rows/r1/history`,
    );
    expect(history.body.items[0]?.cells.output).toEqual(expected);
    const exported = await fetch(`${suite.target.baseUrl}${suite.base}/export?format=jsonl`, {
      headers: { authorization: `Bearer ${suite.key}` },
    }).then((r) => r.text());
    const line = exported
      .split("\n")
      .filter(Boolean)
      .map((text) => JSON.parse(text) as { rowId: string; output: unknown })
      .find((r) => r.rowId === "r1");
    expect(line?.output).toEqual(expected);
  });
});
