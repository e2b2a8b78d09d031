import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { builtinColumn, customColumn, makeRow } from "./factories";
import { ROW_HEIGHT, RowGrid, type RowGridProps } from "./row-grid";

const columns = [builtinColumn("input"), customColumn("c1", "difficulty")];

const rowsOf = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    makeRow({
      rowId: `r${i}`,
      input: { question: `q${i}` },
      metadata: {},
      custom: { c1: i % 2 ? "hard" : "easy" },
    }),
  );

const VIEWPORT = 720;

// The simulated DOM has no layout: give every element the viewport's size, as the browser would.
beforeAll(() => {
  for (const [property, value] of [
    ["clientHeight", VIEWPORT],
    ["offsetHeight", VIEWPORT],
    ["clientWidth", 1200],
    ["offsetWidth", 1200],
  ] as const) {
    Object.defineProperty(HTMLElement.prototype, property, { configurable: true, get: () => value });
  }
});
afterEach(cleanup);

function renderGrid(overrides: Partial<RowGridProps>) {
  const props: RowGridProps = {
    columns,
    rows: rowsOf(10_000),
    total: undefined,
    hasMore: false,
    loadingMore: false,
    loadMore: vi.fn(),
    selectedRowId: undefined,
    onSelect: vi.fn(),
    onOpen: vi.fn(),
    checked: new Set(),
    onToggleChecked: vi.fn(),
    onToggleAll: vi.fn(),
    selectable: true,
    ...overrides,
  };
  return { ...render(<RowGrid {...props} />), props };
}

const renderedRows = () => screen.getAllByRole("row").filter((row) => row.id.startsWith("row-"));

async function scrollTo(top: number) {
  const grid = screen.getByRole("grid");
  await act(async () => {
    grid.scrollTop = top;
    grid.dispatchEvent(new Event("scroll"));
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
}

describe("the dataset grid", () => {
  it("renders only the rows in view of 10,000, however far it scrolls", async () => {
    renderGrid({});
    const inView = Math.ceil(VIEWPORT / ROW_HEIGHT);
    expect(renderedRows().length).toBeGreaterThanOrEqual(inView);
    expect(renderedRows().length).toBeLessThan(inView + 30);
    expect(renderedRows()[0]?.id).toBe("row-r0");

    await scrollTo(5_000 * ROW_HEIGHT);
    const ids = renderedRows().map((row) => row.id);
    expect(ids).toContain("row-r5000");
    expect(ids).not.toContain("row-r0");
    expect(ids.length).toBeLessThan(inView + 30);
    expect(screen.getByRole("grid").getAttribute("aria-rowcount")).toBe("10001");
  });

  it("asks for the next page when the last loaded rows come into view, and not before", async () => {
    const loadMore = vi.fn();
    renderGrid({ rows: rowsOf(200), hasMore: true, loadMore });
    expect(loadMore).not.toHaveBeenCalled();
    await scrollTo(150 * ROW_HEIGHT);
    expect(loadMore).toHaveBeenCalled();
    // While more rows may come, the grid does not claim to know how many there are.
    expect(screen.getByRole("grid").getAttribute("aria-rowcount")).toBe("-1");
  });

  it("moves with J and K from the last key's row, and opens it with Enter", async () => {
    const onSelect = vi.fn();
    const onOpen = vi.fn();
    renderGrid({ rows: rowsOf(50), onSelect, onOpen });
    const grid = screen.getByRole("grid");
    for (const key of ["j", "j", "j", "k", "ArrowDown", "ArrowDown"]) {
      await act(async () => {
        grid.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
      });
    }
    expect(onSelect.mock.calls.map((call) => call[0])).toEqual(["r0", "r1", "r2", "r1", "r2", "r3"]);
    await act(async () => {
      grid.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    });
    expect(onOpen).toHaveBeenCalledWith("r3");
  });

  it("moves with J from a row that left the list to the row that followed it, and with K to the one before", async () => {
    const onSelect = vi.fn();
    const rows = rowsOf(10);
    const { props, rerender } = renderGrid({ rows, onSelect, selectedRowId: "r2" });
    const press = (key: string) =>
      act(async () => {
        screen.getByRole("grid").dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
      });
    // r2 was saved out of a filtered view: the list no longer has it.
    const without = rows.filter((row) => row.rowId !== "r2");
    rerender(<RowGrid {...props} rows={without} selectedRowId={undefined} />);
    await press("j");
    expect(onSelect).toHaveBeenLastCalledWith("r3");

    rerender(
      <RowGrid {...props} rows={without.filter((row) => row.rowId !== "r3")} selectedRowId={undefined} />,
    );
    await press("k");
    expect(onSelect).toHaveBeenLastCalledWith("r1");
  });

  it("points the screen reader at the selected row only while that row is rendered", async () => {
    const { rerender, props } = renderGrid({ selectedRowId: "r3" });
    const grid = screen.getByRole("grid");
    expect(grid.getAttribute("aria-activedescendant")).toBe("row-r3");
    expect(document.getElementById("row-r3")).not.toBeNull();
    // A deep link to a row the list does not have (filtered out, or not loaded yet).
    rerender(<RowGrid {...props} selectedRowId="nowhere" />);
    expect(grid.hasAttribute("aria-activedescendant")).toBe(false);
    // A selected row scrolled far out of the rendered window.
    rerender(<RowGrid {...props} selectedRowId="r0" />);
    await scrollTo(9_000 * ROW_HEIGHT);
    expect(document.getElementById("row-r0")).toBeNull();
    expect(grid.hasAttribute("aria-activedescendant")).toBe(false);
  });

  it("is one stop of the Tab key: its checkboxes answer Space and Ctrl+A on the grid", async () => {
    const onToggleAll = vi.fn();
    const onToggleChecked = vi.fn();
    renderGrid({ selectedRowId: "r1", onToggleAll, onToggleChecked, rows: rowsOf(20) });
    const tabStops = [...document.querySelectorAll<HTMLElement>("input, button, [tabindex]")].filter(
      (element) => element.tabIndex >= 0,
    );
    expect(tabStops).toEqual([screen.getByRole("grid")]);
    const press = (key: string, init: KeyboardEventInit = {}) =>
      act(async () => {
        screen.getByRole("grid").dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, ...init }));
      });
    await press(" ");
    expect(onToggleChecked).toHaveBeenLastCalledWith("r1", false);
    await press("a", { ctrlKey: true });
    expect(onToggleAll).toHaveBeenCalledTimes(1);
    await press("a");
    expect(onToggleAll).toHaveBeenCalledTimes(1);
  });
});
