import type { ReactNode } from "react";

/**
 * A quiet button that acts on one record of a list (rename, remove, restore…): a short word on screen,
 * and in its accessible name the record it acts on.
 */
export function ActionButton({
  label,
  danger = false,
  disabled,
  className,
  onClick,
  children,
}: {
  /** The accessible name: the action and its record, such as "Rename CI key". */
  label: string;
  /** The action destroys something. */
  danger?: boolean;
  disabled?: boolean;
  /** A name for the page's own code to find it by (focus returning to it). */
  className?: string;
  onClick(): void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={[danger ? "button button-quiet danger" : "button button-quiet", className ?? ""]
        .join(" ")
        .trim()}
      aria-label={label}
      disabled={disabled}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
