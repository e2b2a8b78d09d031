import type { DatasetColumn } from "@svc/sdk";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import {
  DEFAULT_LAYOUT,
  defaultWidth,
  type GridLayout,
  MAX_WIDTH,
  MIN_WIDTH,
  ROW_ID_COLUMN,
  withPinned,
  withShown,
  withWidth,
} from "./grid-layout";

/**
 * The grid's layout, by keyboard as well as by mouse: each column shown or hidden, pinned to the left
 * or not, and its width (the arrow keys step it by 10 pixels). Kept in this browser, per dataset.
 */
export function LayoutMenu({
  columns,
  layout,
  onChange,
}: {
  columns: readonly DatasetColumn[];
  layout: GridLayout;
  onChange(change: (layout: GridLayout) => GridLayout): void;
}) {
  const menu = useRef<HTMLDetailsElement>(null);
  const entries = [
    { id: ROW_ID_COLUMN, name: "Row" },
    ...columns.map((column) => ({ id: column.identifier, name: column.name })),
  ];
  // Esc closes the menu and gives the focus back to its button, as a menu does.
  const onKeyDown = (event: KeyboardEvent<HTMLDetailsElement>) => {
    if (event.key !== "Escape" || !menu.current?.open) return;
    event.preventDefault();
    menu.current.open = false;
    menu.current.querySelector("summary")?.focus();
  };
  return (
    <details className="menu layout-menu" ref={menu} onKeyDown={onKeyDown}>
      <summary className="button button-quiet">Layout</summary>
      <div className="menu-items layout-items">
        <table className="layout-table">
          <caption>The grid's columns in this browser</caption>
          <thead>
            <tr>
              <th scope="col">Column</th>
              <th scope="col">Shown</th>
              <th scope="col">Pinned</th>
              <th scope="col">Width</th>
            </tr>
          </thead>
          <tbody>
            {entries.map(({ id, name }) => (
              <tr key={id}>
                <th scope="row">{name}</th>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Show ${name}`}
                    checked={!layout.hidden.includes(id)}
                    // The row id names the row: it stays.
                    disabled={id === ROW_ID_COLUMN}
                    onChange={(event) => onChange((now) => withShown(now, id, event.target.checked))}
                  />
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Pin ${name} to the left`}
                    checked={layout.pinned.includes(id)}
                    onChange={(event) => onChange((now) => withPinned(now, id, event.target.checked))}
                  />
                </td>
                <td>
                  <WidthInput
                    name={name}
                    width={layout.widths[id] ?? defaultWidth(id, columns)}
                    onWidth={(width) => onChange((now) => withWidth(now, id, width))}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" className="button button-quiet" onClick={() => onChange(() => DEFAULT_LAYOUT)}>
          Reset layout
        </button>
      </div>
    </details>
  );
}

/**
 * A column's width in pixels: typed (a width is taken once it is one the grid allows, so typing "300"
 * passes through "3" without resizing), or stepped by the arrow keys.
 */
function WidthInput({ name, width, onWidth }: { name: string; width: number; onWidth(width: number): void }) {
  const [text, setText] = useState(String(width));
  const typing = useRef(false);
  useEffect(() => {
    if (!typing.current) setText(String(width));
  }, [width]);
  return (
    <input
      className="input layout-width"
      type="number"
      aria-label={`Width of ${name}, in pixels`}
      min={MIN_WIDTH}
      max={MAX_WIDTH}
      step={10}
      value={text}
      onFocus={() => {
        typing.current = true;
      }}
      onBlur={() => {
        typing.current = false;
        setText(String(width));
      }}
      onChange={(event) => {
        setText(event.target.value);
        const typed = event.target.valueAsNumber;
        if (Number.isFinite(typed) && typed >= MIN_WIDTH && typed <= MAX_WIDTH) onWidth(typed);
      }}
    />
  );
}
