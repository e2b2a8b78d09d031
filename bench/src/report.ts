// The shared end of every benchmark: docs/performance.md, one section per benchmark.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { root } from "@svc/testing/platform";

const file = join(root, "docs", "performance.md");

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
