import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { datasetSnapshot, expectError, listAll, type Row } from "../../factories";
import type { Client } from "../../http";
import { startWithDataset, type Target, targets } from "../../targets";

/** JSON keys that name JavaScript's object machinery: data like any other key, never dropped or obeyed. */
describe.each(targets())("keys named __proto__, constructor and prototype (%s)", (_name, start) => {
  let target: Target;
  let api: Client;
  let key: string;
  let base: string;

  beforeAll(async () => {
    ({ target, key, api, base } = await startWithDataset(start, {
      newOrganization: true,
      rows: 2,
      columns: 1,
    }));
  });
  afterAll(async () => {
    await target?.stop();
  });

  const snapshot = () => datasetSnapshot(api, base);

  it.each([
    ["__proto__", '{"custom":{"__proto__":1}}'],
    ["__proto__", '{"custom":{"__proto__":{"polluted":true}}}'],
    ["constructor", '{"custom":{"constructor":{"prototype":{"polluted":true}}}}'],
    ["prototype", '{"custom":{"prototype":1}}'],
  ])(
    "refuses a row edit whose custom key is %s as unknown_column naming it, changing nothing",
    async (key, body) => {
      const before = await snapshot();
      const error = await expectError(api.send("PATCH", `${base}/rows/r0`, body), 400, "unknown_column");
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
      api.send("POST", `${base}/rows`, '{"rows":[{"id":"n","input":1,"custom":{"__proto__":1}}]}'),
      400,
      "unknown_column",
    );
    await expectError(
      api.send("PATCH", `${base}/rows`, '{"edits":[{"rowId":"r1","custom":{"__proto__":1}}]}'),
      400,
      "unknown_column",
    );
    const copy = await expectError(
      api.send(
        "POST",
        `${base}/rows/copy`,
        `{"to":{"datasetSlug":"${base.split("/").at(-1)}"},"selection":{"mode":"all"},"columnMap":{"__proto__":null}}`,
      ),
      400,
      "unknown_column",
    );
    expect(copy.details).toMatchObject({ column: "__proto__" });
    expect(await snapshot()).toEqual(before);
  });

  it("stores a cell holding those keys exactly as sent, and gives it back on every read", async () => {
    const cell = '{"__proto__":{"polluted":true},"constructor":{"prototype":1},"list":[{"__proto__":null}]}';
    const edited = await api.send<{ version: number }>("PATCH", `${base}/rows/r1`, `{"output":${cell}}`);
    expect(edited.status).toBe(200);
    const expected = JSON.parse(cell) as unknown;
    const row = await api.get<Row>(`${base}/rows/r1`);
    expect(row.body.output).toEqual(expected);
    expect(Object.keys(row.body.output as object).sort()).toEqual(["__proto__", "constructor", "list"]);
    const listed = await listAll<Row>(api, `${base}/rows`);
    expect(listed.find((r) => r.rowId === "r1")?.output).toEqual(expected);
    const history = await api.get<{ items: { cells: { output: unknown } }[] }>(`${base}/rows/r1/history`);
    expect(history.body.items[0]?.cells.output).toEqual(expected);
    const exported = await fetch(`${target.baseUrl}${base}/export?format=jsonl`, {
      headers: { authorization: `Bearer ${key}` },
    }).then((r) => r.text());
    const line = exported
      .split("\n")
      .filter(Boolean)
      .map((text) => JSON.parse(text) as { rowId: string; output: unknown })
      .find((r) => r.rowId === "r1");
    expect(line?.output).toEqual(expected);
  });
});
