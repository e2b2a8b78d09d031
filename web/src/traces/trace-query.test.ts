import { describe, expect, it } from "vitest";
import {
  instantOfLocal,
  localInputValue,
  paramsOf,
  queryFrom,
  traceCount,
  traceFilters,
} from "./trace-query";

describe("the traces list's address", () => {
  it("reads every filter and the order from the address", () => {
    const query = queryFrom(
      new URLSearchParams(
        "model=gpt-4o&tag=support&session=s1&user=ada&errors=1&from=2026-11-28T10:00:00Z&to=2026-11-28T11:00:00.000Z&sort=cost",
      ),
    );
    expect(query).toEqual({
      text: "",
      name: "",
      tag: "support",
      model: "gpt-4o",
      session: "s1",
      user: "ada",
      errors: true,
      from: "2026-11-28T10:00:00.000Z",
      to: "2026-11-28T11:00:00.000Z",
      sort: "cost",
    });
    expect(traceFilters(query)).toEqual([
      { field: "tags", op: "contains", value: "support" },
      { field: "models", op: "contains", value: "gpt-4o" },
      { field: "sessionId", op: "eq", value: "s1" },
      { field: "userId", op: "eq", value: "ada" },
      { field: "errorCount", op: "gt", value: 0 },
      { field: "startTime", op: "gte", value: "2026-11-28T10:00:00.000Z" },
      { field: "startTime", op: "lt", value: "2026-11-28T11:00:00.000Z" },
    ]);
  });

  it("searches the input and output for the free text, trimmed, first of the conditions", () => {
    const query = queryFrom(new URLSearchParams("text=%20refund%20&model=gpt-4o"));
    expect(query.text).toBe(" refund ");
    expect(traceFilters(query)).toEqual([
      { field: "text", op: "contains", value: "refund" },
      { field: "models", op: "contains", value: "gpt-4o" },
    ]);
    expect(paramsOf(query).toString()).toBe("text=refund&model=gpt-4o");
    expect(traceFilters(queryFrom(new URLSearchParams("text=%20%20")))).toEqual([]);
    expect(paramsOf({ text: "   " }).toString()).toBe("");
  });

  it("counts traces as the list's heading says them", () => {
    expect(traceCount(0)).toBe("0 traces");
    expect(traceCount(1)).toBe("1 trace");
    expect(traceCount(1234)).toBe(`${(1234).toLocaleString()} traces`);
    expect(traceCount(1, true)).toBe("1 trace matches these filters");
    expect(traceCount(31, true)).toBe("31 traces match these filters");
    expect(traceCount(0, true)).toBe("0 traces match these filters");
  });

  it("ignores an unknown order and a time that is not one", () => {
    const query = queryFrom(new URLSearchParams("sort=random&from=yesterday"));
    expect([query.sort, query.from]).toEqual(["newest", ""]);
    expect(traceFilters(query)).toEqual([]);
  });

  it("writes only what differs from the defaults, and reads it back the same", () => {
    const params = paramsOf({ model: " gpt-4o ", name: "", errors: false, sort: "newest" });
    expect(params.toString()).toBe("model=gpt-4o");
    const full = paramsOf({ user: "ada", errors: true, from: "2026-11-28T10:00:00.000Z", sort: "slowest" });
    expect(queryFrom(full)).toMatchObject({
      user: "ada",
      errors: true,
      from: "2026-11-28T10:00:00.000Z",
      sort: "slowest",
    });
  });

  it("round-trips an instant through a datetime-local input in the person's time zone", () => {
    const iso = "2026-11-28T10:05:00.000Z";
    expect(instantOfLocal(localInputValue(iso))).toBe(iso);
    expect(instantOfLocal("")).toBe("");
  });
});
