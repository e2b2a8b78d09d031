import { DomainError, operations } from "@svc/contracts";
import { toContractColumn, updateColumn } from "../repositories/columns";
import { columnChange, findColumn } from "./column-changes";

export const reorderDatasetColumns = columnChange(
  operations.reorderDatasetColumns,
  async (trx, datasetId, columns, { body }) => {
    const active = columns.filter((c) => !c.removed);
    assertPermutation(
      body.order,
      active.map((c) => c.identifier),
    );
    const removed = columns.filter((c) => c.removed);
    const ordered = [...body.order.map((id) => findColumn(active, id, "active")), ...removed];
    for (const [position, column] of ordered.entries()) {
      if (column.position !== position) await updateColumn(trx, datasetId, column.identifier, { position });
    }
    return { columns: ordered.filter((c) => !c.removed).map(toContractColumn) };
  },
);

function assertPermutation(order: readonly string[], active: readonly string[]): void {
  const seen = new Set<string>();
  const duplicates = order.filter((id) => seen.has(id) || !seen.add(id));
  const unknown = order.filter((id) => !active.includes(id));
  const missing = active.filter((id) => !order.includes(id));
  if (duplicates.length + unknown.length + missing.length === 0) return;
  const problems = [
    missing.length ? `missing ${missing.map((id) => `"${id}"`).join(", ")}` : "",
    unknown.length ? `unknown or removed ${unknown.map((id) => `"${id}"`).join(", ")}` : "",
    duplicates.length ? `listed twice ${duplicates.map((id) => `"${id}"`).join(", ")}` : "",
  ].filter(Boolean);
  throw new DomainError(
    "validation_failed",
    `order must list every active column identifier exactly once: ${problems.join("; ")}`,
    {
      issues: [{ path: "body.order", message: problems.join("; "), code: "custom" }],
      missing,
      unknown,
      duplicates,
    },
  );
}
