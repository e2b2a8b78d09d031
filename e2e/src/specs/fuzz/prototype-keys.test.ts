import { randomBytes } from "node:crypto";
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
    ["toString", '{"custom":{"toString":"x"}}'],
    ["hasOwnProperty", '{"custom":{"hasOwnProperty":{"x":1}}}'],
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

  /** The dataset's one custom column. */
  const customColumn = async () =>
    (
      await suite.api.get<{ columns: { identifier: string; source: { kind: string } }[] }>(
        `${suite.base}/columns`,
      )
    ).body.columns.find((column) => column.source.kind === "custom")?.identifier as string;

  /** A row as it is read now, at its version, and in the diff that made it. */
  async function readEverywhere(rowId: string) {
    const row = await suite.api.get<Row & { version: number }>(`${suite.base}/rows/${rowId}`);
    expect(row.status).toBe(200);
    const atVersion = await suite.api.get<Row>(`${suite.base}/rows/${rowId}?version=${row.body.version}`);
    const diff = await listAll<{ rowId: string; after: Row }>(
      suite.api,
      `${suite.base}/diff`,
      `from=${row.body.version - 1}&to=${row.body.version}`,
    );
    return { row: row.body, atVersion: atVersion.body, after: diff.find((d) => d.rowId === rowId)?.after };
  }

  it("stores an inserted cell holding __proto__, constructor or toString exactly, built-in and custom alike", async () => {
    const column = await customColumn();
    const cell = '{"__proto__":{"x":1},"constructor":{"prototype":{"y":2}},"toString":"t"}';
    const inserted = await suite.api.send(
      "POST",
      `${suite.base}/rows`,
      `{"rows":[{"id":"proto-insert","input":{"__proto__":{"x":1}},"metadata":${cell},"custom":{"${column}":${cell}}}]}`,
    );
    expect(inserted.status).toBe(201);
    const read = await readEverywhere("proto-insert");
    for (const row of [read.row, read.atVersion, read.after]) {
      expect(row?.input).toEqual(JSON.parse('{"__proto__":{"x":1}}'));
      expect(Object.keys(row?.input as object)).toEqual(["__proto__"]);
      expect(row?.metadata).toEqual(JSON.parse(cell));
      expect(row?.custom).toEqual(JSON.parse(`{"${column}":${cell}}`));
      expect(Object.keys(row?.custom[column] as object).sort()).toEqual([
        "__proto__",
        "constructor",
        "toString",
      ]);
    }
  });

  it("stores a row edit's and a batch edit's custom cell holding those keys exactly", async () => {
    const column = await customColumn();
    const cell = '{"__proto__":{"a":[1]},"constructor":null,"toString":{"__proto__":"deep"}}';
    const edited = await suite.api.send("PATCH", `${suite.base}/rows/r0`, `{"custom":{"${column}":${cell}}}`);
    expect(edited.status).toBe(200);
    expect((await readEverywhere("r0")).row.custom).toEqual(JSON.parse(`{"${column}":${cell}}`));
    const batch = await suite.api.send(
      "PATCH",
      `${suite.base}/rows`,
      `{"edits":[{"rowId":"r1","expectedOutput":${cell},"custom":{"${column}":${cell}}}]}`,
    );
    expect(batch.status).toBe(200);
    const read = await readEverywhere("r1");
    expect(read.row.expectedOutput).toEqual(JSON.parse(cell));
    expect(read.row.custom).toEqual(JSON.parse(`{"${column}":${cell}}`));
    expect(read.after?.custom).toEqual(JSON.parse(`{"${column}":${cell}}`));
  });

  it("tells a retried insert from one whose cell differs only by a __proto__ key", async () => {
    const key = { "idempotency-key": `proto-${randomBytes(4).toString("hex")}` };
    const path = `${suite.base}/rows`;
    const first = await suite.api.send(
      "POST",
      path,
      '{"rows":[{"id":"proto-idem","input":{"__proto__":1}}]}',
      key,
    );
    expect(first.status).toBe(201);
    const retry = await suite.api.send(
      "POST",
      path,
      '{"rows":[{"id":"proto-idem","input":{"__proto__":1}}]}',
      key,
    );
    expect(retry).toMatchObject({ status: 201, body: first.body });
    await expectError(
      suite.api.send("POST", path, '{"rows":[{"id":"proto-idem","input":{}}]}', key),
      409,
      "idempotency_key_reused",
    );
  });

  it("keeps a message field named __proto__ from an ingested trace through its import into a row", async () => {
    const traceId = randomBytes(16).toString("hex");
    const nanos = (BigInt(Date.now()) * 1_000_000n).toString();
    const attribute = (key: string, value: string) => ({ key, value: { stringValue: value } });
    const ingested = await suite.api.post(
      "/v1/traces",
      {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId,
                    spanId: randomBytes(8).toString("hex"),
                    name: "chat",
                    kind: 1,
                    startTimeUnixNano: nanos,
                    endTimeUnixNano: nanos,
                    attributes: [
                      attribute("gen_ai.prompt.0.__proto__", '{"role":"user"}'),
                      attribute("gen_ai.prompt.0.content", "hi"),
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
      { "x-svc-project": suite.project },
    );
    expect(ingested.status).toBe(200);
    const imported = await suite.api.post<{ rowIds: string[] }>(`${suite.base}/rows/import/traces`, {
      traces: { by: "ids", ids: [traceId] },
    });
    expect(imported.status).toBe(201);
    const row = await suite.api.get<Row>(`${suite.base}/rows/${imported.body.rowIds[0]}`);
    expect(row.body.input).toEqual(JSON.parse('[{"__proto__":{"role":"user"},"content":"hi"}]'));
  });
});
