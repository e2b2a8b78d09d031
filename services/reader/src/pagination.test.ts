import { DomainError } from "@svc/contracts";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { decodeCursor, encodeCursor, fingerprint, toPage } from "./pagination";

const schema = z.strictObject({ kind: z.literal("test"), version: z.number().int() });

const rejection = (raw: string) => {
  try {
    decodeCursor(schema, raw);
  } catch (error) {
    return error;
  }
  throw new Error("expected the cursor to be refused");
};

describe("cursors", () => {
  test("read back what they were made from, as URL-safe text", () => {
    const cursor = encodeCursor({ kind: "test", version: 7 });

    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(schema, cursor)).toEqual({ kind: "test", version: 7 });
  });

  test("refuses an edited cursor, even one that is still well-formed", () => {
    const cursor = encodeCursor({ kind: "test", version: 7 });
    const payload = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    const edited = Buffer.from(JSON.stringify({ ...payload, version: 1 })).toString("base64url");

    const error = rejection(edited);

    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: "validation_failed",
      details: { issues: [{ path: "query.cursor", message: expect.any(String), code: "custom" }] },
    });
  });

  test.each([
    ["not base64url", "a+b/c="],
    ["not JSON", Buffer.from("hello").toString("base64url")],
    ["a JSON array", Buffer.from("[1]").toString("base64url")],
    ["without its checksum", Buffer.from('{"kind":"test","version":7}').toString("base64url")],
    ["another list's cursor", encodeCursor({ kind: "other", version: 7 })],
  ])("refuses %s", (_, raw) => {
    expect(rejection(raw)).toMatchObject({ code: "validation_failed" });
  });

  test("fingerprints tell values apart and leave absence as null", () => {
    expect(fingerprint("a")).toBe(fingerprint("a"));
    expect(fingerprint("a")).not.toBe(fingerprint("A"));
    expect(fingerprint(undefined)).toBeNull();
    expect(fingerprint("x".repeat(500))?.length).toBe(16);
  });
});

describe("toPage", () => {
  const cursorOf = (record: number | string) => `after-${record}`;

  test("shows `limit` records and points after the last one when one more was found", () => {
    expect(toPage([1, 2, 3], 2, (n) => n * 10, cursorOf)).toEqual({
      items: [10, 20],
      nextCursor: "after-2",
      hasMore: true,
    });
  });

  test("ends the list when no more was found", () => {
    expect(toPage([1, 2], 2, (n) => n, cursorOf)).toEqual({
      items: [1, 2],
      nextCursor: null,
      hasMore: false,
    });
    expect(toPage([], 2, (n) => n, cursorOf)).toEqual({ items: [], nextCursor: null, hasMore: false });
  });

  test("ends a page early, with a cursor after its last item, once its items would pass the byte limit", () => {
    const cell = "x".repeat(100);
    const page = toPage([1, 2, 3, 4, 5], 5, (n) => ({ n, cell }), cursorOf, 250);
    expect(page.items.map((item) => item.n)).toEqual([1, 2]);
    expect(page).toMatchObject({ nextCursor: "after-2", hasMore: true });
  });

  test("shows a first item larger than the limit on a page of its own, so that paging goes on", () => {
    const big = "é".repeat(200); // 400 bytes of UTF-8, 200 characters
    expect(toPage(["a", big, "b"], 3, (s) => s, cursorOf, 300)).toEqual({
      items: ["a"],
      nextCursor: "after-a",
      hasMore: true,
    });
    expect(toPage([big, "b"], 3, (s) => s, cursorOf, 300)).toEqual({
      items: [big],
      nextCursor: `after-${big}`,
      hasMore: true,
    });
    expect(toPage([big], 3, (s) => s, cursorOf, 300)).toEqual({
      items: [big],
      nextCursor: null,
      hasMore: false,
    });
  });
});
