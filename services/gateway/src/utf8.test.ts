import { firstInvalidByte } from "@svc/contracts";
import { describe, expect, it } from "vitest";
import { type FakePlatform, fakePlatform } from "./testing/fake-platform";
import { decodeUtf8 } from "./utf8";

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (s: string) => new TextEncoder().encode(s);

describe("UTF-8 bodies", () => {
  it("decodes well-formed text of every length of character", () => {
    expect(decodeUtf8(text('{"a":"é€😀"}'))).toEqual({ text: '{"a":"é€😀"}' });
  });

  it.each([
    ["a lone continuation byte", bytes(0x41, 0x80), 1],
    ["0xff", bytes(0x22, 0xff, 0xfe), 1],
    ["an overlong two-byte form", bytes(0xc0, 0xaf), 0],
    ["an overlong three-byte form", bytes(0x41, 0xe0, 0x80, 0xaf), 1],
    ["an encoded surrogate", bytes(0xed, 0xa0, 0x80), 0],
    ["a code point past U+10FFFF", bytes(0xf4, 0x90, 0x80, 0x80), 0],
    ["a sequence cut short at the end", bytes(0x41, 0x42, 0xe2, 0x82), 2],
    ["a sequence cut short by ASCII", bytes(0xe2, 0x41, 0x42), 0],
  ])("finds the first bad byte of %s", (_case, input, offset) => {
    expect(firstInvalidByte(input)).toBe(offset);
    expect(decodeUtf8(input)).toEqual({ invalidAt: offset });
  });

  it("refuses a JSON body with invalid UTF-8 with 400 naming the offset, reaching no service", async () => {
    const platform: FakePlatform = await fakePlatform();
    try {
      const payload = Buffer.concat([
        Buffer.from('{"resourceSpans":"'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}'),
      ]);
      const response = await platform.gateway.app.inject({
        method: "POST",
        url: "/v1/traces",
        headers: {
          authorization: `Bearer ${platform.key("member")}`,
          "content-type": "application/json",
          "x-svc-project": "demo",
        },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: "validation_failed",
        error:
          "The body is not valid UTF-8: the byte at offset 18 does not begin or continue a character; send JSON encoded as UTF-8",
        details: { issues: [{ path: "body", code: "invalid_utf8" }] },
      });
      expect(platform.calls).toEqual([]);
    } finally {
      await platform.close();
    }
  });
});
