import type { DatasetRow } from "@svc/sdk";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { builtinColumn, customColumn, makeRow } from "./factories";
import { DEFAULT_LAYOUT, type GridLayout } from "./grid-layout";
import { RowGrid, type RowGridProps } from "./row-grid";
import { HEADER_HEIGHT, MAX_SCROLL_HEIGHT, ROW_HEIGHT } from "./row-window";

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

/** A list of `length` rows of which `read` are read, from position 0. */
function listOf(read: readonly DatasetRow[], length = read.length) {
  return {
    length,
    exact: true,
    rows: read,
    rowAt: (index: number) => read[index],
    indexOf: (rowId: string) => read.findIndex((row) => row.rowId === rowId),
  };
}

function renderGrid(overrides: Partial<RowGridProps>) {
  const props: RowGridProps = {
    columns,
    ...listOf(rowsOf(10_000)),
    onView: vi.fn(),
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
const placeholders = () => screen.getAllByRole("row").filter((row) => row.getAttribute("aria-busy"));

async function scrollTo(top: number) {
  const grid = screen.getByRole("grid");
  await act(async () => {
    grid.scrollTop = top;
    grid.dispatchEvent(new Event("scroll"));
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
}

/** The span the grid last said it shows. */
const lastSpan = (onView: ReturnType<typeof vi.fn>) =>
  (onView.mock.lastCall?.[0] as { first: number; last: number } | undefined) ?? { first: -1, last: -1 };

const press = (key: string, init: KeyboardEventInit = {}) =>
  act(async () => {
    screen.getByRole("grid").dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, ...init }));
  });

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

  it("spans the whole list before its rows are read, and says which rows the scroll landed on", async () => {
    const onView = vi.fn();
    renderGrid({ ...listOf(rowsOf(200), 100_000), onView });
    const body = document.querySelector<HTMLElement>(".grid-body");
    expect(body?.style.height).toBe(`${100_000 * ROW_HEIGHT}px`);
    expect(onView).toHaveBeenLastCalledWith({ first: 0, last: expect.any(Number) });

    await scrollTo(50_000 * ROW_HEIGHT);
    const { first, last } = lastSpan(onView);
    expect(first).toBeLessThanOrEqual(50_000);
    expect(first).toBeGreaterThan(49_980);
    expect(last).toBeGreaterThan(50_000 + (VIEWPORT - HEADER_HEIGHT) / ROW_HEIGHT - 1);
    // Not read yet: placeholders, at their positions, and no row drawn.
    expect(renderedRows()).toEqual([]);
    expect(placeholders().map((row) => row.getAttribute("aria-rowindex"))).toContain("50002");
  });

  it("keeps the scroll area within what a browser allows for 10 million rows, and still reaches the middle and the end", async () => {
    const onView = vi.fn();
    renderGrid({ ...listOf([], 10_000_000), onView });
    const body = document.querySelector<HTMLElement>(".grid-body");
    expect(body?.style.height).toBe(`${MAX_SCROLL_HEIGHT}px`);
    await scrollTo((MAX_SCROLL_HEIGHT - (VIEWPORT - HEADER_HEIGHT)) / 2);
    const middle = lastSpan(onView).first;
    expect(Math.abs(middle - 5_000_000)).toBeLessThan(20);
    await scrollTo(MAX_SCROLL_HEIGHT);
    expect(lastSpan(onView).last).toBe(9_999_999);
  });

  it("moves with J and K from the last key's row, and opens it with Enter", async () => {
    const onSelect = vi.fn();
    const onOpen = vi.fn();
    renderGrid({ ...listOf(rowsOf(50)), onSelect, onOpen });
    for (const key of ["j", "j", "j", "k", "ArrowDown", "ArrowDown"]) await press(key);
    expect(onSelect.mock.calls.map((call) => call[0])).toEqual(["r0", "r1", "r2", "r1", "r2", "r3"]);
    await press("Enter");
    expect(onOpen).toHaveBeenCalledWith("r3");
  });

  it("goes to the ends with Home and End, and selects a row not read yet once its page is in", async () => {
    const onSelect = vi.fn();
    const read = rowsOf(200);
    const { props, rerender } = renderGrid({ ...listOf(read, 5_000), onSelect });
    await press("End");
    expect(onSelect).not.toHaveBeenCalled();
    expect(screen.getByRole("grid").scrollTop).toBeGreaterThan(4_900 * ROW_HEIGHT);
    // The last page comes in.
    const all = [...read, ...rowsOf(5_000).slice(200)];
    rerender(<RowGrid {...props} {...listOf(all)} />);
    expect(onSelect).toHaveBeenLastCalledWith("r4999");
    await press("Home");
    expect(onSelect).toHaveBeenLastCalledWith("r0");
    expect(screen.getByRole("grid").scrollTop).toBe(0);
  });

  it("moves with J from a row that left the list to the row that followed it, and with K to the one before", async () => {
    const onSelect = vi.fn();
    const rows = rowsOf(10);
    const { props, rerender } = renderGrid({ ...listOf(rows), onSelect, selectedRowId: "r2" });
    // r2 was saved out of a filtered view: the list no longer has it.
    const without = rows.filter((row) => row.rowId !== "r2");
    rerender(<RowGrid {...props} {...listOf(without)} selectedRowId={undefined} />);
    await press("j");
    expect(onSelect).toHaveBeenLastCalledWith("r3");

    rerender(
      <RowGrid
        {...props}
        {...listOf(without.filter((row) => row.rowId !== "r3"))}
        selectedRowId={undefined}
      />,
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
    renderGrid({ selectedRowId: "r1", onToggleAll, onToggleChecked, ...listOf(rowsOf(20)) });
    const tabStops = [...document.querySelectorAll<HTMLElement>("input, button, [tabindex]")].filter(
      (element) => element.tabIndex >= 0,
    );
    expect(tabStops).toEqual([screen.getByRole("grid")]);
    await press(" ");
    expect(onToggleChecked).toHaveBeenLastCalledWith("r1", false);
    await press("a", { ctrlKey: true });
    expect(onToggleAll).toHaveBeenCalledTimes(1);
    await press("a");
    expect(onToggleAll).toHaveBeenCalledTimes(1);
  });

  it("lays the columns out as the layout says: widths, hidden ones left out, pinned ones first and sticky", () => {
    const layout: GridLayout = { widths: { input: 420 }, hidden: ["c1"], pinned: ["input"] };
    renderGrid({ ...listOf(rowsOf(3)), layout });
    const headers = screen.getAllByRole("columnheader").slice(1);
    expect(headers.map((header) => header.textContent)).toEqual(["Input", "Row"]);
    expect(headers[0]?.style.width).toBe("420px");
    // Pinned after the checkboxes: 40 pixels from the left edge, wherever the grid scrolls.
    expect(headers[0]?.style.left).toBe("40px");
    expect(headers[1]?.style.left).toBe("");
    expect(screen.getByRole("grid").getAttribute("aria-colcount")).toBe("3");
    const cells = screen.getAllByRole("row")[1]?.querySelectorAll('[role="gridcell"]');
    expect([...(cells ?? [])].map((cell) => cell.textContent)).toEqual(["", '{"question":"q0"}', "r0"]);
  });

  it("resizes a column by dragging its header's edge", () => {
    let layout = DEFAULT_LAYOUT;
    const onLayout = vi.fn((change: (now: GridLayout) => GridLayout) => {
      layout = change(layout);
    });
    renderGrid({ ...listOf(rowsOf(3)), onLayout });
    const edge = screen.getAllByRole("columnheader")[2]?.querySelector(".col-resizer");
    if (!edge) throw new Error("no resize edge on the Input header");
    fireEvent.mouseDown(edge, { clientX: 500 });
    fireEvent.mouseMove(document, { clientX: 560 });
    fireEvent.mouseUp(document, { clientX: 560 });
    expect(layout.widths).toEqual({ input: 320 });
  });
});
