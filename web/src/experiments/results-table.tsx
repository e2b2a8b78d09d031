import type { ExperimentResult } from "@svc/sdk";
import { useEffect, useRef } from "react";
import { numeric, Table } from "../components/table";
import { ClippedText, formatLatency, OutputWithDiff, ScoreList } from "./result-parts";
import { formatCost } from "./scores";

/**
 * An experiment's results, one row each: the row's input and expected output at the pinned version,
 * the output with its difference from the expected one marked, the cost of getting it, and its scores.
 * The selected result (moved with j/k) is the one the scoring keys act on.
 */
export function ResultsTable({
  results,
  selected,
  onSelect,
  checked,
  onToggle,
  onToggleAll,
  ownActorId,
}: {
  results: readonly ExperimentResult[];
  selected: string | undefined;
  onSelect(rowId: string): void;
  checked: ReadonlySet<string>;
  onToggle(rowId: string): void;
  onToggleAll(): void;
  ownActorId: string;
}) {
  const selectedRow = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (selected === undefined) return;
    selectedRow.current?.scrollIntoView?.({ block: "nearest" });
  }, [selected]);
  const everyChecked = results.length > 0 && results.every((result) => checked.has(result.rowId));
  return (
    <div className="table-scroller">
      <Table
        caption="Results, in row id order"
        className="table results-table"
        columns={[
          {
            name: "Check",
            label: (
              <input
                type="checkbox"
                aria-label="Check every result shown"
                checked={everyChecked}
                onChange={onToggleAll}
              />
            ),
          },
          "Row",
          "Input",
          "Expected output",
          "Output",
          numeric("Latency"),
          numeric("Tokens"),
          numeric("Cost"),
          "Error",
          "Scores",
        ]}
      >
        {results.map((result) => {
          const isSelected = result.rowId === selected;
          return (
            <tr
              key={result.rowId}
              ref={isSelected ? selectedRow : undefined}
              className={isSelected ? "result-selected" : undefined}
              aria-current={isSelected ? "true" : undefined}
              onClick={(event) => {
                if ((event.target as HTMLElement).closest("input, a, button")) return;
                onSelect(result.rowId);
              }}
            >
              <td>
                <input
                  type="checkbox"
                  aria-label={`Check row ${result.rowId}`}
                  checked={checked.has(result.rowId)}
                  onChange={() => onToggle(result.rowId)}
                />
              </td>
              <th scope="row">
                <button
                  type="button"
                  className="link-button row-id"
                  aria-label={`Select row ${result.rowId}`}
                  aria-pressed={isSelected}
                  onClick={() => onSelect(result.rowId)}
                >
                  {result.rowId}
                </button>
                {result.carriedFrom ? <span className="badge">carried</span> : null}
              </th>
              <td>
                <ClippedText value={result.input} />
              </td>
              <td>
                <ClippedText value={result.expectedOutput} />
              </td>
              <td>
                {result.error && result.output === null ? (
                  <span className="muted">no output</span>
                ) : (
                  <OutputWithDiff output={result.output} expected={result.expectedOutput} />
                )}
              </td>
              <td className="numeric">{formatLatency(result.latencyMs)}</td>
              <td className="numeric">{result.tokens === null ? "–" : result.tokens.toLocaleString()}</td>
              <td className="numeric">
                {result.costMicrocents === null ? "–" : formatCost(result.costMicrocents)}
              </td>
              <td>{result.error ? <span className="result-error clipped">{result.error}</span> : null}</td>
              <td>
                <ScoreList scores={result.scores} ownActorId={ownActorId} />
              </td>
            </tr>
          );
        })}
      </Table>
    </div>
  );
}
