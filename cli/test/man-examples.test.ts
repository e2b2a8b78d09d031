import { spawnSync } from "node:child_process";
import { programsAvailable } from "@svc/testing/programs";
import { describe, expect, it } from "vitest";
import { exampleBlock, manExamples } from "../src/generate/man";
import { runSvc } from "./run-svc";

/** The page as mandoc renders it for a terminal of `width` columns, overstruck bold and underline removed. */
function render(roff: string, output: "utf8" | "ascii", width: number): string {
  const run = spawnSync("mandoc", ["-T", output, "-O", `width=${width}`], { input: roff, encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  // [\b] is a backspace: mandoc writes bold as `c\bc` and underline as `_\bc`.
  return run.stdout.replace(/.[\b]/g, "");
}

/** The lines of the EXAMPLES section as rendered, without the page's indentation. */
function examplesOf(rendered: string): string[] {
  const lines = rendered.split("\n");
  const start = lines.indexOf("EXAMPLES");
  expect(start).toBeGreaterThan(0);
  const end = lines.findIndex((line, index) => index > start && /^\S/.test(line));
  return lines.slice(start + 1, end).map((line) => line.replace(/^ {7}/, ""));
}

const lint = (roff: string) =>
  spawnSync("mandoc", ["-T", "lint", "-W", "all"], { input: roff, encoding: "utf8" });

const widths = [80, 60, 40];

describe.runIf(programsAvailable("mandoc"))("the EXAMPLES of svc man", () => {
  it("shows every example line as written, on one line, at any width", async () => {
    const page = await runSvc(["man"]);
    expect(page.code).toBe(0);
    for (const output of ["utf8", "ascii"] as const) {
      for (const width of widths) {
        const shown = examplesOf(render(page.stdout, output, width));
        expect(shown, `-T ${output} -O width=${width}`).toEqual([...manExamples, ""]);
      }
    }
    const checked = lint(page.stdout);
    expect(checked.stdout + checked.stderr).toBe("");
  });

  it("keeps dots, quotes, backslashes, dashes and lines over 80 bytes as written", () => {
    const awkward = [
      ".svc starts with a dot",
      "'svc' starts with a quote",
      String.raw`svc a\b \e \\ \- "x" \`y\` ~ ^ \fBnot bold\fP`,
      `svc datasets insert-rows --project-slug a-long-project --dataset-slug a-long-dataset --json '{"rows":[{"id":"r1","input":"hi"}]}' --format jsonl`,
      `svc ${"x".repeat(75)}.${"y".repeat(30)}`,
      "    indented -- and -dashed",
    ];
    const page = `${[".TH T 1 2026-01-01 t t", ".SH NAME", "t \\- t", ".SH EXAMPLES", ...exampleBlock(awkward)].join("\n")}\n`;
    for (const output of ["utf8", "ascii"] as const) {
      for (const width of widths) {
        expect(examplesOf(render(page, output, width)), `-T ${output} -O width=${width}`).toEqual([
          ...awkward,
          "",
        ]);
      }
    }
    const checked = lint(page);
    expect(checked.stdout + checked.stderr).toBe("");
    for (const line of page.split("\n")) expect(Buffer.byteLength(line), line).toBeLessThanOrEqual(80);
  });
});
