import { describe, expect, it } from "vitest";
import {
  apiQueryOf,
  ariaSortOf,
  newMessagesOf,
  offsetLabel,
  orderFrom,
  paramsOfOrder,
  toggledOrder,
} from "./trace-groups";

describe("the order of the sessions' and users' lists", () => {
  it("reads the order from the address, the latest first by default, and ignores what is no column", () => {
    const none = { from: "", to: "" };
    expect(orderFrom(new URLSearchParams(""))).toEqual({
      sortBy: "lastTime",
      sortDirection: "desc",
      ...none,
    });
    expect(orderFrom(new URLSearchParams("sort=costMicrocents&direction=asc"))).toEqual({
      sortBy: "costMicrocents",
      sortDirection: "asc",
      ...none,
    });
    expect(orderFrom(new URLSearchParams("sort=toString&direction=sideways&from=soon"))).toEqual({
      sortBy: "lastTime",
      sortDirection: "desc",
      ...none,
    });
  });

  it("keeps a range of start times in the address, and asks the API only for the bounds that are set", () => {
    const query = orderFrom(new URLSearchParams("from=2026-11-28T10:00:00Z&sort=traces"));
    expect(query).toEqual({
      sortBy: "traces",
      sortDirection: "desc",
      from: "2026-11-28T10:00:00.000Z",
      to: "",
    });
    expect(apiQueryOf(query)).toEqual({
      sortBy: "traces",
      sortDirection: "desc",
      from: "2026-11-28T10:00:00.000Z",
    });
    expect(paramsOfOrder(query).toString()).toBe("sort=traces&from=2026-11-28T10%3A00%3A00.000Z");
    // Sorting by another column keeps the range.
    expect(toggledOrder(query, "errors")).toEqual({ ...query, sortBy: "errors" });
  });

  it("writes only what differs from the default, and reads it back the same", () => {
    expect(paramsOfOrder({ sortBy: "lastTime", sortDirection: "desc" }).toString()).toBe("");
    const params = paramsOfOrder({ sortBy: "traces", sortDirection: "asc" });
    expect(params.toString()).toBe("sort=traces&direction=asc");
    expect(orderFrom(params)).toEqual({ sortBy: "traces", sortDirection: "asc", from: "", to: "" });
  });

  it("sorts by a new column largest first, and turns the order round on the same column", () => {
    const byTraces = toggledOrder({ sortBy: "lastTime", sortDirection: "asc" }, "traces");
    expect(byTraces).toEqual({ sortBy: "traces", sortDirection: "desc" });
    expect(toggledOrder(byTraces, "traces")).toEqual({ sortBy: "traces", sortDirection: "asc" });
    expect(ariaSortOf(byTraces, "traces")).toBe("descending");
    expect(ariaSortOf({ sortBy: "traces", sortDirection: "asc" }, "traces")).toBe("ascending");
    expect(ariaSortOf(byTraces, "errors")).toBe("none");
  });
});

describe("a session's turns", () => {
  it("shows of a turn's input only what follows the last answer, without the system prompt", () => {
    const input = [
      { role: "system", content: "You answer refund questions." },
      { role: "user", content: "Where is my refund?" },
      { role: "assistant", content: "On its way." },
      { role: "user", content: "When will it arrive?" },
    ];
    expect(newMessagesOf(input).map((m) => m.parts)).toEqual([
      [{ kind: "text", text: "When will it arrive?" }],
    ]);
    expect(newMessagesOf(input.slice(0, 2)).map((m) => m.role)).toEqual(["user"]);
    expect(newMessagesOf("Plain prompt").map((m) => [m.role, m.parts])).toEqual([
      ["user", [{ kind: "text", text: "Plain prompt" }]],
    ]);
    expect(newMessagesOf(null)).toEqual([]);
  });

  it("tells how long after the session's start a turn came", () => {
    const start = "2026-11-28T10:00:00.000Z";
    expect(offsetLabel(start, start)).toBe("+0 s");
    expect(offsetLabel(start, "2026-11-28T10:00:42.400Z")).toBe("+42 s");
    expect(offsetLabel(start, "2026-11-28T10:02:05.000Z")).toBe("+2 min 5 s");
    expect(offsetLabel(start, "2026-11-28T10:03:00.000Z")).toBe("+3 min");
    expect(offsetLabel(start, "2026-11-28T12:10:00.000Z")).toBe("+2 h 10 min");
    expect(offsetLabel(start, "2026-11-28T09:00:00.000Z")).toBe("+0 s");
  });
});
