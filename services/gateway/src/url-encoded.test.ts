import { afterEach, describe, expect, it } from "vitest";
import { type FakePlatform, fakePlatform } from "./testing/fake-platform";
import { parseUrlEncoded } from "./url-encoded";

describe("parseUrlEncoded", () => {
  it("decodes names and values, repeated names as lists, + as a space", () => {
    const parsed = parseUrlEncoded("a=1&b=x+y&b=%C3%A9%E2%82%AC&empty=&bare&&c=%2B%25");
    expect(parsed).toEqual({ fields: { a: "1", b: ["x y", "é€"], empty: "", bare: "", c: "+%" } });
  });

  it("keeps a parameter named __proto__ as a parameter, in an object without a prototype", () => {
    const parsed = parseUrlEncoded("__proto__=x&constructor=y");
    if (!("fields" in parsed)) throw new Error("refused");
    expect(Object.getPrototypeOf(parsed.fields)).toBeNull();
    expect(Object.entries(parsed.fields)).toEqual([
      ["__proto__", "x"],
      ["constructor", "y"],
    ]);
  });

  it.each([
    ["an escape that is no UTF-8 byte sequence", "a=1&search=ab%FFc", "search", 13, "%FF", false],
    ["a sequence cut short", "search=%E2%82", "search", 7, "%E2", false],
    ["an overlong form", "search=%C0%AF", "search", 7, "%C0", false],
    ["an encoded surrogate", "q=%ED%A0%80", "q", 2, "%ED", false],
    ["a % that begins no escape", "search=100%", "search", 10, "%", true],
    ["a % followed by non-hex", "search=%zz", "search", 7, "%zz", true],
    ["a bad byte in a name", "a%FF=1", undefined, 1, "%FF", false],
  ])("refuses %s, naming the parameter and the offset", (_case, text, parameter, at, found, stray) => {
    expect(parseUrlEncoded(text)).toEqual({ undecodable: { parameter, at, escape: found, stray } });
  });
});

describe("query strings and form bodies that are not percent-encoded UTF-8", () => {
  let platform: FakePlatform | undefined;
  afterEach(async () => {
    await platform?.close();
    platform = undefined;
  });

  it("refuses a query string with 400 naming the parameter, reaching no service", async () => {
    platform = await fakePlatform();
    const response = await platform.gateway.app.inject({
      method: "GET",
      url: "/v1/account?search=ab%FF",
      headers: { authorization: `Bearer ${platform.key()}` },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error:
        'The query string is not percent-encoded UTF-8 in the parameter "search": the escape "%FF" at character 9 is not part of a UTF-8 character; percent-encode the UTF-8 bytes of each name and value',
      code: "validation_failed",
      requestId: response.headers["x-request-id"],
      details: {
        issues: [
          {
            path: "query.search",
            message:
              'is not percent-encoded UTF-8: the escape "%FF" at character 9 is not part of a UTF-8 character',
            code: "invalid_utf8",
          },
        ],
      },
    });
    expect(platform.calls).toEqual([]);
  });

  it("leaves the web application's pages alone", async () => {
    platform = await fakePlatform();
    const response = await platform.gateway.app.inject({ method: "GET", url: "/projects?x=%FF" });
    expect(response.statusCode).not.toBe(400);
  });

  it.each([
    [
      "a byte that is not UTF-8",
      Buffer.concat([Buffer.from("grant_type=refresh_token&refresh_token=a"), Buffer.from([0xff])]),
      "The body is not valid UTF-8: the byte at offset 40 does not begin or continue a character; send the form encoded as UTF-8",
    ],
    [
      "an escape that is not UTF-8",
      Buffer.from("grant_type=refresh_token&refresh_token=a%FF"),
      'The form body is not percent-encoded UTF-8 in the parameter "refresh_token": the escape "%FF" at character 40 is not part of a UTF-8 character',
    ],
  ])(
    "refuses an OAuth form body holding %s with 400 invalid_request",
    async (_case, payload, description) => {
      platform = await fakePlatform();
      const response = await platform.gateway.app.inject({
        method: "POST",
        url: "/oauth/token",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: "invalid_request", error_description: description });
    },
  );
});
