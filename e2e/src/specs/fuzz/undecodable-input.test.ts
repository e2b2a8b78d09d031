import { describe, expect, it } from "vitest";
import { datasetSnapshot, type ErrorBody, expectError } from "../../factories";
import { datasetForSuite, targets } from "../../targets";

/** Text with raw bytes spliced in where `\xNN` is written: what a client with a broken encoder sends. */
const bytes = (text: string): Uint8Array =>
  Uint8Array.from(
    text
      .split(/(\\x[0-9a-f]{2})/)
      .flatMap((part) =>
        /^\\x[0-9a-f]{2}$/.test(part) ? [Number.parseInt(part.slice(2), 16)] : [...Buffer.from(part)],
      ),
  );

describe.each(targets())("bytes and escapes that are not UTF-8 (%s)", (_name, start) => {
  const suite = datasetForSuite(start, { newOrganization: true, rows: 2, columns: 1 });

  const send = (method: string, path: string, body: Uint8Array, contentType = "application/json") =>
    suite.api.send(method, path, Buffer.from(body).toString("latin1"), { "content-type": contentType });

  /** fetch would encode a string body as UTF-8: raw bytes go as a Uint8Array. */
  async function sendBytes(method: string, path: string, body: Uint8Array, headers: Record<string, string>) {
    const response = await fetch(`${suite.target.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as unknown, headers: response.headers };
  }

  const withKey = (contentType: string) => ({
    authorization: `Bearer ${suite.key}`,
    "content-type": contentType,
  });

  const snapshot = () => datasetSnapshot(suite.api, suite.base);

  it("refuses a row edit whose JSON holds bytes that are not UTF-8 with 400 naming the offset, storing nothing", async () => {
    const before = await snapshot();
    const answer = await sendBytes(
      "PATCH",
      `${suite.base}/rows/r0`,
      bytes('{"expectedOutput":"\\xff\\xfe"}'),
      withKey("application/json"),
    );
    const error = await expectError(answer, 400, "validation_failed");
    expect(error.error).toBe(
      "The body is not valid UTF-8: the byte at offset 19 does not begin or continue a character; send JSON encoded as UTF-8",
    );
    expect(error.details?.issues).toEqual([
      {
        path: "body",
        message: "is not valid UTF-8: the byte at offset 19 does not begin or continue a character",
        code: "invalid_utf8",
      },
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ["an insert", "POST", "/rows", '{"rows":[{"id":"x","input":"a\\xc3\\x28b"}]}', 29],
    ["a batch edit", "PATCH", "/rows", '{"edits":[{"rowId":"r1","output":"\\xed\\xa0\\x80"}]}', 34],
    ["a dataset's description", "PATCH", "", '{"description":"caf\\xe9"}', 19],
  ])(
    "refuses %s holding bytes that are not UTF-8, storing nothing",
    async (_case, method, path, body, offset) => {
      const before = await snapshot();
      const answer = await sendBytes(
        method,
        `${suite.base}${path}`,
        bytes(body),
        withKey("application/json"),
      );
      const error = await expectError(answer, 400, "validation_failed");
      expect(error.error).toContain(`the byte at offset ${offset}`);
      expect(await snapshot()).toEqual(before);
    },
  );

  it("refuses an MCP tool call whose JSON is not UTF-8 before any tool runs", async () => {
    const before = await snapshot();
    const [projectSlug, datasetSlug] = suite.base.split("/").filter((_, i) => i === 3 || i === 5);
    const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"updateDatasetRow","arguments":{"projectSlug":"${projectSlug}","datasetSlug":"${datasetSlug}","rowId":"r0","output":"\\xff"}}}`;
    const answer = await sendBytes("POST", "/v1/mcp", bytes(call), {
      ...withKey("application/json"),
      accept: "application/json, text/event-stream",
    });
    const error: ErrorBody = await expectError(answer, 400, "validation_failed");
    expect(error.details?.issues?.[0]?.code).toBe("invalid_utf8");
    expect(await snapshot()).toEqual(before);
  });

  it("refuses query parameters that are not percent-encoded UTF-8, on reads and on an import", async () => {
    const before = await snapshot();
    const search = await expectError(
      suite.api.get(`${suite.base}/rows?search=caf%E9`),
      400,
      "validation_failed",
    );
    expect(search.details?.issues).toEqual([
      {
        path: "query.search",
        message:
          'is not percent-encoded UTF-8: the escape "%E9" at character 10 is not part of a UTF-8 character',
        code: "invalid_utf8",
      },
    ]);
    await expectError(suite.api.get(`${suite.base}/rows?search=100%`), 400, "validation_failed");
    // The map names the columns an import creates: "new:%FF" must not become a column named "%FF" or "�".
    const map = `%7B%22f%22%3A%22new%3A%FF%22%7D`;
    const imported = await send(
      "POST",
      `${suite.base}/imports?map=${map}`,
      bytes('{"f":1}\n'),
      "application/x-ndjson",
    );
    const error = await expectError(imported, 400, "validation_failed");
    expect(error.details?.issues?.map((issue) => issue.path)).toEqual(["query.map"]);
    expect(await snapshot()).toEqual(before);
    const columns = await suite.api.get<{ columns: { name: string }[] }>(
      `${suite.base}/columns?includeRemoved=true`,
    );
    expect(columns.body.columns.map((c) => c.name)).toEqual([
      "Input",
      "Output",
      "Expected output",
      "Metadata",
      "c0",
    ]);
  });

  it("refuses an OAuth form body that is not UTF-8, raw or percent-encoded, as invalid_request", async () => {
    for (const form of [
      "grant_type=refresh_token&refresh_token=a\\xffb",
      "grant_type=refresh_token&refresh_token=a%FFb",
    ]) {
      const answer = await sendBytes("POST", "/oauth/token", bytes(form), {
        "content-type": "application/x-www-form-urlencoded",
      });
      expect(answer.status, form).toBe(400);
      expect(answer.body, form).toEqual({
        error: "invalid_request",
        error_description: expect.stringMatching(/not (valid|percent-encoded) UTF-8/),
      });
    }
  });
});
