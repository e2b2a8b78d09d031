import { DomainError, encodeCursor } from "@svc/contracts";
import { describe, expect, it } from "vitest";
import { decodePosition, encodePosition } from "./cursor";

describe("list cursors", () => {
  it("round-trips a position to the millisecond", () => {
    const position = { createdAt: new Date("2026-01-02T03:04:05.678Z"), id: "abc" };
    const cursor = encodePosition(position);

    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodePosition(cursor)).toEqual(position);
  });

  it("rejects a cursor with extra fields", () => {
    const cursor = Buffer.from(JSON.stringify({ t: "2026-01-02T03:04:05.678Z", i: "a", x: 1 })).toString(
      "base64url",
    );
    expect(() => decodePosition(cursor)).toThrow(DomainError);
    expect(() => decodePosition(encodeCursor({ t: "2026-01-02T03:04:05.678Z", i: "a", x: 1 }))).toThrow(
      DomainError,
    );
  });
});
