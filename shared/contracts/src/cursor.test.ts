import { describe, expect, test } from "vitest";
import { z } from "zod";
import { cursorFingerprint, decodeCursor, encodeCursor } from "./cursor";
import { DomainError } from "./errors";

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
    expect(cursorFingerprint("a")).toBe(cursorFingerprint("a"));
    expect(cursorFingerprint("a")).not.toBe(cursorFingerprint("A"));
    expect(cursorFingerprint(undefined)).toBeNull();
    expect(cursorFingerprint("x".repeat(500))?.length).toBe(16);
  });
});
