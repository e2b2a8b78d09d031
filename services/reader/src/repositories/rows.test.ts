import { likePattern } from "@svc/db";
import { describe, expect, test } from "vitest";

describe("likePattern", () => {
  test("wraps the search in wildcards", () => {
    expect(likePattern("fox")).toBe("%fox%");
  });

  test("escapes LIKE's wildcards and its escape character", () => {
    expect(likePattern("100%_")).toBe("%100\\%\\_%");
  });

  test("writes quotes, backslashes and control characters as a cell's JSON text holds them", () => {
    expect(likePattern('say "hi"')).toBe('%say \\\\"hi\\\\"%');
    expect(likePattern("a\\b")).toBe("%a\\\\\\\\b%");
    expect(likePattern("line\nbreak")).toBe("%line\\\\nbreak%");
  });
});
