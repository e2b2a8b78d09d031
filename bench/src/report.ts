// The shared end of every benchmark: what it prints as it goes, its table, and docs/performance.md,
// one section per benchmark.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { root } from "@svc/testing/platform";

const file = join(root, "docs", "performance.md");

/** A line of progress, with the time of day it was reached. */
export function log(message: string): void {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
}

/** Whether a measurement met its target; null when there is nothing to meet. */
export const verdict = (met: boolean | null): string => (met === null ? "—" : met ? "met" : "MISSED");

/** A row of a table: its cells, then whether its target was met (null: nothing to meet). */
export type VerdictRow = readonly [...cells: string[], met: boolean | null];

/** A Markdown table of rows under `header`, each ending with its verdict. */
export function verdictTable(header: readonly string[], rows: readonly VerdictRow[]): string {
  return [
    `| ${header.join(" | ")} | |`,
    `|${"---|".repeat(header.length + 1)}`,
    ...rows.map((row) => {
      const met = row[row.length - 1] as boolean | null;
      return `| ${row.slice(0, -1).join(" | ")} | ${verdict(met)} |`;
    }),
  ].join("\n");
}

/** Whether no row of a table missed its target. */
export const allMet = (rows: readonly VerdictRow[]): boolean =>
  rows.every((row) => row[row.length - 1] !== false);

/** The machine a table was measured on, as the report states it. */
export function machine(): string {
  const cpu = cpus()[0]?.model.trim() ?? "unknown CPU";
  return `${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

/**
 * Replaces one benchmark's section of docs/performance.md (between its markers), keeping the other
 * benchmarks' sections, so each benchmark can be re-run and recorded on its own.
 */
export function writeSection(name: string, text: string): void {
  const begin = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const current = existsSync(file)
    ? readFileSync(file, "utf8")
    : "# Performance\n\nWritten by `npm run bench -- --write`; each section by the benchmark it names.\n";
  const section = `${begin}\n${text.trim()}\n${end}`;
  const at = current.indexOf(begin);
  const until = current.indexOf(end);
  const next =
    at >= 0 && until > at
      ? `${current.slice(0, at)}${section}${current.slice(until + end.length)}`
      : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
  // Tables come out as the formatter lays them out, so that `npm run lint` stays clean.
  const biome = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");
  const formatted = spawnSync(process.execPath, [biome, "format", "--write", file], { encoding: "utf8" });
  if (formatted.status !== 0) throw new Error(`formatting ${file} failed: ${formatted.stderr}`);
  console.log(`recorded in ${file}`);
}
