import type { ReactNode } from "react";

/** A column of a table's header: its name, or a name and what the header shows in its place. */
export type TableColumn = string | { name: string; label?: ReactNode; numeric?: boolean };

/**
 * A table of records: its caption (for screen readers only, unless `captionVisible`), one header row of
 * column names and, when the rows end with their buttons, a last column named for screen readers.
 */
export function Table({
  caption,
  captionVisible = false,
  className = "table",
  columns,
  actions = false,
  children,
}: {
  caption?: ReactNode;
  captionVisible?: boolean;
  className?: string;
  columns: readonly TableColumn[];
  actions?: boolean;
  /** The body's rows. */
  children: ReactNode;
}) {
  return (
    <table className={className}>
      {caption === undefined ? null : (
        <caption className={captionVisible ? undefined : "visually-hidden"}>{caption}</caption>
      )}
      <thead>
        <tr>
          {columns.map((column) =>
            typeof column === "string" ? (
              <th key={column} scope="col">
                {column}
              </th>
            ) : (
              <th key={column.name} scope="col" className={column.numeric ? "numeric" : undefined}>
                {column.label ?? column.name}
              </th>
            ),
          )}
          {actions ? (
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** A numeric column: its numbers, and its name, aligned right. */
export const numeric = (name: string): TableColumn => ({ name, numeric: true });
