import { DomainError } from "@svc/contracts";
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor";

describe("list cursors", () => {
  it("round-trips a position to the millisecond", () => {
    const position = { createdAt: new Date("2026-01-02T03:04:05.678Z"), id: "abc" };
    const cursor = encodeCursor(position);

    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(position);
  });

  it("rejects a cursor with extra fields", () => {
    const cursor = Buffer.from(JSON.stringify({ t: "2026-01-02T03:04:05.678Z", i: "a", x: 1 })).toString(
      "base64url",
    );
    expect(() => decodeCursor(cursor)).toThrow(DomainError);
  });
});
