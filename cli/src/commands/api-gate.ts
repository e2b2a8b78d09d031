import { type Context, note } from "../context";
import { CliError, exitCodes, usageError } from "../errors";
import type { PreparedRequest } from "../http/request";
import type { Transport } from "../http/transport";
import type { ApiCommand, Input } from "../spec/command-tree";
import { withCursor } from "./api-cursor";
import { exchange } from "./api-exchange";
import { emit, parseJson, type Query } from "./api-output";

/* `svc experiments compare A B --fail-on-regression`: the comparison as a CI step's pass or fail. */

type Scores = Record<string, { value: unknown }>;
interface Entry {
  rowId: string;
  change: string;
  rowChanged: boolean;
  a: { scores: Scores; error: string | null } | null;
  b: { scores: Scores; error: string | null } | null;
}
interface Summary {
  scores: Record<string, { a: number | null; b: number | null; delta: number | null }>;
  regressed: number;
}
interface ComparePage {
  items: Entry[];
  nextCursor: string | null;
  hasMore: boolean;
  summary: Summary;
}

/**
 * Reads every regressed row of the comparison (they are the list's first rows, so nothing else is
 * read), prints them, and fails with exit 6 when b regressed from a: a shared score's mean dropped by
 * more than --tolerance, or, without it, any row regressed (on --score alone, when given).
 */
export async function runRegressionGate(
  ctx: Context,
  command: ApiCommand,
  values: Map<Input, string | true>,
  first: PreparedRequest,
  transport: Transport,
  query: Query | undefined,
): Promise<void> {
  const score = localValue(command, values, "score");
  const toleranceText = localValue(command, values, "tolerance");
  const tolerance = toleranceText === undefined ? undefined : Number(toleranceText);
  const { entries, summary } = await regressedRows(ctx, command, first, transport);
  if (score !== undefined && !(score in summary.scores)) {
    const shared = Object.keys(summary.scores);
    throw usageError(
      `--score ${score} is not a score both experiments have`,
      shared.length > 0 ? `their shared scores: ${shared.join(", ")}` : "the two experiments share no score",
      "unknown_score",
    );
  }
  const judged = score === undefined ? Object.keys(summary.scores) : [score];
  const rows = entries.filter((entry) => score === undefined || dropped(entry, score) || failedInB(entry));
  const reasons =
    tolerance === undefined
      ? rows.length > 0
        ? [`${rows.length} row${rows.length === 1 ? "" : "s"} regressed${score ? ` on ${score}` : ""}`]
        : []
      : judged.flatMap((name) => {
          const { a, b, delta } = summary.scores[name] ?? { a: null, b: null, delta: null };
          return delta !== null && delta < -tolerance
            ? [
                `${name} fell from ${round(a)} to ${round(b)} (${round(delta)}, beyond the tolerance of ${tolerance})`,
              ]
            : [];
        });
  const shown = rows.map((entry) => shownRow(entry, judged, ctx.globals.format === "table"));
  await emit(ctx, query ? query(shown) : shown, query !== undefined);
  if (reasons.length > 0) {
    throw new CliError(`regression: ${reasons.join("; ")}`, {
      exit: exitCodes.regression,
      code: "regression",
      details: { reasons, summary },
    });
  }
  const means = judged.map(
    (name) => `${name} ${round(summary.scores[name]?.a)} → ${round(summary.scores[name]?.b)}`,
  );
  note(ctx, `svc: no regression${means.length > 0 ? ` (${means.join(", ")})` : ""}`);
}

/** The comparison's regressed rows, page after page, and its summary. */
async function regressedRows(
  ctx: Context,
  command: ApiCommand,
  first: PreparedRequest,
  transport: Transport,
): Promise<{ entries: Entry[]; summary: Summary }> {
  const url = new URL(first.url);
  url.searchParams.set("change", "regressed");
  if (!url.searchParams.has("limit")) url.searchParams.set("limit", "200");
  let request: PreparedRequest = { ...first, url: url.toString() };
  const entries: Entry[] = [];
  for (;;) {
    const page = parseJson(await exchange(ctx, command, request, transport)) as ComparePage;
    entries.push(...page.items);
    if (!page.hasMore || !page.nextCursor) return { entries, summary: page.summary };
    request = withCursor(command, request, page.nextCursor);
  }
}

function localValue(
  command: ApiCommand,
  values: Map<Input, string | true>,
  name: string,
): string | undefined {
  const input = command.inputs.find((candidate) => candidate.location === "local" && candidate.name === name);
  const value = input && values.get(input);
  return typeof value === "string" ? value : undefined;
}

const numeric = (value: unknown): number | undefined =>
  typeof value === "number" ? value : typeof value === "boolean" ? Number(value) : undefined;

function dropped(entry: Entry, score: string): boolean {
  const a = numeric(entry.a?.scores[score]?.value);
  const b = numeric(entry.b?.scores[score]?.value);
  return a !== undefined && b !== undefined && b < a;
}

const failedInB = (entry: Entry) => entry.b?.error != null && entry.a?.error == null;

/** A regressed row as printed: each judged score from a to b (as one cell on a table). */
function shownRow(entry: Entry, scores: readonly string[], table: boolean): Record<string, unknown> {
  const pairs = scores.map((name) => {
    const a = entry.a?.scores[name]?.value ?? null;
    const b = entry.b?.scores[name]?.value ?? null;
    return [name, table ? `${text(a)} → ${text(b)}` : { a, b }] as const;
  });
  return {
    rowId: entry.rowId,
    rowChanged: entry.rowChanged,
    ...(entry.b?.error ? { error: entry.b.error } : {}),
    ...Object.fromEntries(pairs),
  };
}

const text = (value: unknown) => (value === null ? "–" : String(value));
const round = (value: number | null | undefined) =>
  value === null || value === undefined ? "–" : String(Math.round(value * 10_000) / 10_000);
