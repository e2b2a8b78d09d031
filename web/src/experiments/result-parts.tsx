import type { ExperimentResult } from "@svc/sdk";
import { actorLabel } from "../versions/changes";
import { formatScore } from "./scores";
import { cellText, outputDiff } from "./text-diff";

/** A cell's text, clipped by the stylesheet to a few lines; its whole text on hover. */
export function ClippedText({ value }: { value: unknown }) {
  if (value === undefined) return <span className="muted">not set</span>;
  const text = cellText(value);
  return (
    <span className="clipped" title={text.length > 80 ? text.slice(0, 2_000) : undefined}>
      {value === null ? <span className="muted">null</span> : text}
    </span>
  );
}

/**
 * The output, with what differs from the expected output marked: the expected words it left out struck
 * through, the words it put in their place highlighted. Said in words for screen readers too.
 */
export function OutputWithDiff({ output, expected }: { output: unknown; expected: unknown }) {
  const parts = outputDiff(expected, output);
  if (!parts) return <ClippedText value={output} />;
  if (parts.every((part) => part.kind === "same"))
    return (
      <span className="clipped">
        {cellText(output)} <span className="badge badge-added">matches</span>
      </span>
    );
  return (
    <span className="clipped output-diff">
      {parts.map((part, i) =>
        part.kind === "same" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff never move
          <span key={i}>{part.text}</span>
        ) : part.kind === "added" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <ins key={i}>
            <span className="visually-hidden">(added) </span>
            {part.text}
          </ins>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <del key={i}>
            <span className="visually-hidden">(expected, missing) </span>
            {part.text}
          </del>
        ),
      )}
    </span>
  );
}

/** A result's scores: each name and value, its source, and who gave a human one (with their comment). */
export function ScoreList({
  scores,
  ownActorId,
}: {
  scores: ExperimentResult["scores"];
  ownActorId: string;
}) {
  const entries = Object.entries(scores).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return <span className="muted">none</span>;
  return (
    <ul className="score-list">
      {entries.map(([name, score]) => (
        <li key={name} className={score.source === "human" ? "score-human" : undefined}>
          <span className="score-name">{name}</span>{" "}
          <strong className={scoreClass(score.value)}>{formatScore(score.value)}</strong>{" "}
          <span className="score-source">
            {score.source}
            {score.source === "human" ? ` · ${actorLabel(score.actor, ownActorId)}` : null}
          </span>
          {score.comment ? <span className="score-comment">“{score.comment}”</span> : null}
        </li>
      ))}
    </ul>
  );
}

function scoreClass(value: number | boolean | string): string | undefined {
  if (value === true) return "score-pass";
  if (value === false) return "score-fail";
  return undefined;
}

/** Latency, tokens and cost in one place, as compact as they read. */
export function formatLatency(ms: number | null): string {
  if (ms === null) return "–";
  return ms >= 1000
    ? `${(ms / 1000).toLocaleString("en", { maximumFractionDigits: 2 })} s`
    : `${Math.round(ms)} ms`;
}
