import { errorCodes } from "@svc/contracts";
import { describe, expect, it } from "vitest";
import { datasetSnapshot } from "../../factories";
import { type RawResponse, rawHttp } from "../../fuzz/raw-http";
import { datasetForSuite, targets } from "../../targets";

/**
 * What Node's HTTP parser and Fastify refuse before any route runs reaches the client in the API's one
 * error shape, with a code of its vocabulary and the request id that X-Request-Id carries.
 */
describe.each(targets())("requests refused before any route runs (%s)", (_name, start) => {
  const suite = datasetForSuite(start, { newOrganization: true, rows: 2 });

  const snapshot = () => datasetSnapshot(suite.api, suite.base);

  /** A request written by hand: `head` is the request line and headers, without the blank line. */
  const raw = (head: string, body = "") =>
    rawHttp(suite.target.baseUrl, `${head}\r\nHost: svc\r\nConnection: close\r\n\r\n${body}`);
  const patchRow = (headers: string[], body: string) =>
    raw(
      [`PATCH ${suite.base}/rows/r0 HTTP/1.1`, `Authorization: Bearer ${suite.key}`, ...headers].join("\r\n"),
      body,
    );

  function expectApiError(answer: RawResponse, status: number, code: string, issueCode?: string) {
    expect({ status: answer.status, body: answer.body }).toEqual({
      status,
      body: {
        error: expect.stringMatching(/\w+ \w+/),
        code,
        requestId: answer.headers["x-request-id"],
        ...(issueCode ? { details: { issues: [expect.objectContaining({ code: issueCode })] } } : {}),
        ...(code === "payload_too_large" ? { details: { limit: expect.any(Number) } } : {}),
      },
    });
    expect(errorCodes).toContain(code);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
  }

  it.each([
    ["a Content-Length that is not a number", ["Content-Type: application/json", "Content-Length: abc"]],
    [
      "both Content-Length and Transfer-Encoding",
      ["Content-Type: application/json", "Content-Length: 14", "Transfer-Encoding: chunked"],
    ],
    [
      "a control character in a header",
      ["Content-Type: application/json", "X-Note: a\x01b", "Content-Length: 14"],
    ],
    ["a header without a colon", ["Content-Type: application/json", "Broken header", "Content-Length: 14"]],
  ])("answers a request with %s with 400 in the API's shape", async (_case, headers) => {
    const before = await snapshot();
    const answer = await patchRow(headers, '{"output":"x"}');
    expectApiError(answer, 400, "validation_failed", "invalid_http");
    expect((answer.body as { error: string }).error).toMatch(/^The request is not valid HTTP\/1\.1: /);
    expect(await snapshot()).toEqual(before);
  });

  it("answers a raw byte in the request line, and a method HTTP does not have, with 400 in the API's shape", async () => {
    expectApiError(
      await raw(`GET ${suite.base}/rows/r\xff0 HTTP/1.1`),
      400,
      "validation_failed",
      "invalid_http",
    );
    expectApiError(await raw(`G@T ${suite.base} HTTP/1.1`), 400, "validation_failed", "invalid_http");
  });

  it("answers headers over 16 KiB with 413 payload_too_large, naming the limit", async () => {
    const answer = await raw(
      `GET ${suite.base} HTTP/1.1\r\nAuthorization: Bearer ${suite.key}\r\nX-Pad: ${"a".repeat(20_000)}`,
    );
    expectApiError(answer, 413, "payload_too_large");
    expect((answer.body as { error: string }).error).toBe(
      "The request line and headers are larger than the limit of 16384 bytes; send a shorter URL or fewer, shorter headers",
    );
  });

  it.each(["text/csv", "application/x-protobuf", "multipart/form-data; boundary=x", "application/json", ""])(
    "takes a request without a body whatever its Content-Type says (%j)",
    async (contentType) => {
      const created = await suite.api.post<{ id: string }>("/v1/api-keys", {
        name: "short-lived",
        role: "viewer",
      });
      const head = [`DELETE /v1/api-keys/${created.body.id} HTTP/1.1`, `Authorization: Bearer ${suite.key}`];
      const answer = await raw([...head, `Content-Type: ${contentType}`, "Content-Length: 0"].join("\r\n"));
      expect(answer.status).toBe(204);
      const encoded = await raw(
        [`GET ${suite.base} HTTP/1.1`, `Authorization: Bearer ${suite.key}`, "Content-Encoding: br"].join(
          "\r\n",
        ),
      );
      expect(encoded.status).toBe(200);
    },
  );

  it("ignores the body of an operation that takes none, however deep it nests", async () => {
    const project = suite.base.split("/")[3];
    const made = await suite.api.post<{ slug: string }>(`/v1/projects/${project}/datasets`, {
      name: "to delete",
    });
    const body = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    const head = [
      `DELETE /v1/projects/${project}/datasets/${made.body.slug} HTTP/1.1`,
      `Authorization: Bearer ${suite.key}`,
    ];
    const answer = await raw(
      [...head, "Content-Type: application/json", `Content-Length: ${body.length}`].join("\r\n"),
      body,
    );
    expect(answer.status).toBe(204);
  });

  it("refuses an empty upload as an empty file, not for its type", async () => {
    const head = [
      `POST ${suite.base}/imports HTTP/1.1`,
      `Authorization: Bearer ${suite.key}`,
      "Content-Type: text/csv",
    ];
    const answer = await raw([...head, "Content-Length: 0"].join("\r\n"));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: "validation_failed",
      error: expect.stringContaining("The file is empty"),
    });
  });

  it("survives a body that claims to be gzip and is not, on a request that never reads it", async () => {
    const body = "this is not gzip";
    const head = [
      `GET ${suite.base} HTTP/1.1`,
      `Authorization: Bearer ${suite.key}`,
      "Content-Encoding: gzip",
    ];
    const answer = await raw([...head, `Content-Length: ${body.length}`].join("\r\n"), body);
    expect(answer.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await suite.api.get(suite.base)).status).toBe(200);
  });

  it.each([
    ["a path segment over 1,000 characters", `/v1/projects/${"p".repeat(1_500)}/datasets`, "invalid_path"],
    ["a stray % in the path", "/v1/projects/100%/datasets", "invalid_path"],
    ["an escape in the path that is not UTF-8", "/v1/projects/%C3%28/datasets", "invalid_path"],
  ])("answers %s with 400 in the API's shape", async (_case, path, issueCode) => {
    const answer = await raw(`GET ${path} HTTP/1.1\r\nAuthorization: Bearer ${suite.key}`);
    expectApiError(answer, 400, "validation_failed", issueCode);
  });

  it.each([
    [
      "a body over the limit",
      ["Content-Type: application/json"],
      `{"output":"${"x".repeat(1_100_000)}"}`,
      413,
      "payload_too_large",
      undefined,
    ],
    [
      "a body of an unsupported type",
      ["Content-Type: text/plain"],
      '{"output":"x"}',
      415,
      "unsupported_media_type",
      undefined,
    ],
    ["a body without a Content-Type", [], '{"output":"x"}', 415, "unsupported_media_type", undefined],
    [
      "malformed JSON",
      ["Content-Type: application/json"],
      '{"output":',
      400,
      "validation_failed",
      "invalid_json",
    ],
    [
      "JSON nested 10,000 levels",
      ["Content-Type: application/json"],
      `{"output":${"[".repeat(10_000)}${"]".repeat(10_000)}}`,
      400,
      "validation_failed",
      "custom",
    ],
    [
      "a Content-Type with no body",
      ["Content-Type: application/json"],
      "",
      400,
      "validation_failed",
      "invalid_type",
    ],
    [
      "an unknown Content-Encoding",
      ["Content-Type: application/json", "Content-Encoding: br"],
      '{"output":"x"}',
      415,
      "unsupported_media_type",
      undefined,
    ],
    [
      "a gzip body that is not gzip",
      ["Content-Type: application/json", "Content-Encoding: gzip"],
      '{"output":"x"}',
      400,
      "validation_failed",
      undefined,
    ],
  ])(
    "answers a row edit with %s in the API's shape, changing nothing",
    async (_case, headers, body, status, code, issueCode) => {
      const before = await snapshot();
      const answer = await patchRow([...headers, `Content-Length: ${Buffer.byteLength(body)}`], body);
      if (issueCode) expectApiError(answer, status, code, issueCode);
      else {
        expect({ status: answer.status, code: (answer.body as { code: string }).code }).toEqual({
          status,
          code,
        });
        expect((answer.body as { requestId: string }).requestId).toBe(answer.headers["x-request-id"]);
      }
      expect(await snapshot()).toEqual(before);
    },
  );
});
