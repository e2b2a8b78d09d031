import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ApiCommand, CommandTree, Input, Resource } from "../spec/command-tree";
import { VERSION } from "../version";
import { errorShape, exampleInvocation, exitCodeTable } from "./schema";

/** The files of the Agent Skill, by relative path. Pure: the same tree gives the same bytes. */
export function skillFiles(tree: CommandTree): Map<string, string> {
  const files = new Map<string, string>();
  files.set("SKILL.md", skillPage(tree));
  for (const resource of tree.resources) files.set(`references/${resource.name}.md`, resourcePage(resource));
  return files;
}

export function writeSkills(tree: CommandTree, dir: string): string[] {
  const files = skillFiles(tree);
  for (const [path, text] of files) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  return [...files.keys()];
}

function skillPage(tree: CommandTree): string {
  const lines = [
    "---",
    "name: svc",
    `description: Read and edit datasets, rows, columns, versions, projects, traces and API keys of the ${tree.title} with the svc command-line client. Use when asked to inspect or change data on the svc platform.`,
    "---",
    "",
    `# svc ${VERSION}`,
    "",
    "`svc <resource> <command> [flags]` calls one operation of the API. Path, query and body fields are",
    "kebab-case flags; `--json '<object>' | @file | -` gives the whole body and flags override its fields.",
    "A flag that takes any JSON parses its value as JSON; a plain word that is not JSON is a string.",
    "",
    "## Before you start",
    "",
    "- Credentials: `SVC_API_KEY` (wins), else the key stored by `svc auth login`. `svc auth status` tells which, and whether the platform accepts it (exit 0 accepted, 2 none or refused, 4 unreachable).",
    "- `SVC_BASE_URL` (default `http://127.0.0.1:8080`), `SVC_PROJECT_SLUG` (default for `--project-slug`).",
    "- Use `--format json` (or `jsonl`) and `--query '<JMESPath>'` to get exactly the data you need.",
    "- Use `--dry-run` to check a request without sending it, and `<command> --schema` for its inputs and output.",
    "",
    "## Resources",
    "",
  ];
  for (const resource of tree.resources) {
    lines.push(
      `- **${resource.name}** — ${resource.description} ([reference](references/${resource.name}.md)):`,
    );
    lines.push(`  ${resource.commands.map((command) => `\`${command.name}\``).join(", ")}`);
  }
  lines.push("", "## Global flags", "", "| Flag | Meaning |", "|---|---|");
  for (const flag of tree.globalFlags) {
    const name = `${flag.short ? `-${flag.short}, ` : ""}--${flag.flag}${flag.value ? ` <${flag.value}>` : ""}`;
    const values = flag.values ? ` (${flag.values.join(", ")})` : "";
    lines.push(`| \`${name}\` | ${cell(flag.description)}${values} |`);
  }
  lines.push("", "## Other commands", "");
  for (const group of tree.local) {
    for (const command of group.commands) {
      const name = ["svc", group.group, command.name].filter(Boolean).join(" ");
      lines.push(`- \`${name}\` — ${command.summary}`);
    }
  }
  lines.push(...failureSection());
  return `${lines.join("\n")}\n`;
}

function failureSection(): string[] {
  const lines = ["", "## Exit codes", "", "| Code | Meaning |", "|---|---|"];
  for (const [code, meaning] of Object.entries(exitCodeTable)) lines.push(`| ${code} | ${meaning} |`);
  lines.push(
    "",
    "## Errors",
    "",
    `${errorShape.description}:`,
    "",
    "```json",
    JSON.stringify(errorShape.example),
    "```",
  );
  return lines;
}

function resourcePage(resource: Resource): string {
  const lines = [`# svc ${resource.name}`, "", resource.description, ""];
  for (const command of resource.commands) lines.push(...commandSection(command));
  lines.push(...failureSection());
  return `${lines.join("\n")}\n`;
}

function commandSection(command: ApiCommand): string[] {
  const lines = [
    `## svc ${command.resource} ${command.name}`,
    "",
    command.summary,
    "",
    `Request: \`${command.method} ${command.path}\` (operation \`${command.operationId}\`), success HTTP ${command.output.status}.`,
  ];
  if (command.description && command.description !== `${command.summary}.`)
    lines.push("", command.description);
  if (command.paginated) {
    lines.push(
      "",
      "Paginated: the answer is `{items, nextCursor, hasMore}`; `--page-all` fetches every page.",
    );
  }
  if (command.inputs.length > 0 || command.body) {
    lines.push("", "| Flag | In | Type | Required | Description |", "|---|---|---|---|---|");
    for (const input of command.inputs) lines.push(inputRow(input));
    if (command.body) lines.push("| `--json` | body | object | no | The whole body (JSON, @file or -) |");
  }
  lines.push("", "Example:", "", "```sh", exampleInvocation(command), "```");
  const errors = command.errors.map((error) => `${error.status} ${error.codes.join("/")}`).join(", ");
  if (errors) lines.push("", `Errors: ${errors}.`);
  lines.push("");
  return lines;
}

function inputRow(input: Input): string {
  const notes = [input.description ?? ""];
  if (input.enum) notes.push(`one of ${input.enum.join(", ")}`);
  if (input.default !== undefined) notes.push(`default ${JSON.stringify(input.default)}`);
  if (input.location === "path" && input.name === "projectSlug") notes.push("default $SVC_PROJECT_SLUG");
  const text = notes.filter(Boolean).join("; ");
  return `| \`--${input.flag}\` | ${input.location} | ${input.kind} | ${input.required ? "yes" : "no"} | ${cell(text)} |`;
}

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
