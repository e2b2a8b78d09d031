import type { ApiCommand, CommandTree, FlagSpec } from "../spec/command-tree";
import { formats } from "../spec/local-commands";
import { bash, elvish, fish, powershell, zsh } from "./completion-scripts";
import type { CompletionTable } from "./completion-table";

export type { CompletionTable } from "./completion-table";

export function completionTable(tree: CommandTree): CompletionTable {
  const globals = tree.globalFlags.map((flag) => flagWord(flag));
  const words: CompletionTable["words"] = { "": [] };
  const values: CompletionTable["values"] = { "": globalValues(tree.globalFlags, [...formats]) };
  const valueFlags = new Set(tree.globalFlags.filter((flag) => flag.value).map((flag) => `--${flag.flag}`));
  const root = words[""] ?? [];

  for (const resource of tree.resources) {
    root.push({ word: resource.name, description: resource.description });
    words[resource.name] = resource.commands.map((command) => ({
      word: command.name,
      description: command.summary,
    }));
    for (const command of resource.commands) {
      const key = `${resource.name} ${command.name}`;
      const own = globalValues(tree.globalFlags, outputFormats(command));
      const flags = command.inputs.map((input) => {
        valueFlags.add(`--${input.flag}`);
        if (input.enum) own[`--${input.flag}`] = input.enum;
        return { word: `--${input.flag}`, description: oneLine(input.description ?? input.name) };
      });
      if (command.body) {
        valueFlags.add("--json");
        flags.push({ word: "--json", description: "The whole request body (JSON, @file or -)" });
      }
      words[key] = [...flags, ...globals, helpWord];
      values[key] = own;
    }
  }
  for (const group of tree.local) {
    if (group.group) {
      root.push({ word: group.group, description: group.description });
      words[group.group] = group.commands.map((command) => ({
        word: command.name,
        description: command.summary,
      }));
    }
    for (const command of group.commands) {
      const key = group.group ? `${group.group} ${command.name}` : command.name;
      if (!group.group) root.push({ word: command.name, description: command.summary });
      const own = globalValues(tree.globalFlags, outputFormats(undefined));
      for (const flag of command.flags) {
        if (flag.value) valueFlags.add(`--${flag.flag}`);
        if (flag.values) own[`--${flag.flag}`] = flag.values;
      }
      const argumentWords = (command.argument?.values ?? []).map((value) => ({
        word: value,
        description: "",
      }));
      words[key] = [...argumentWords, ...command.flags.map((flag) => flagWord(flag)), ...globals, helpWord];
      values[key] = own;
    }
  }
  root.push(...globals, helpWord, { word: "--version", description: "Print the version" });
  return { words, valueFlags: [...valueFlags].sort(), values };
}

/** The formats named by the media types of a file the API answers with (an export). */
const FORMAT_OF_MEDIA_TYPE: Record<string, string> = {
  "text/csv": "csv",
  "application/x-ndjson": "jsonl",
  "application/vnd.apache.parquet": "parquet",
};

/**
 * What --format may be for a command: a command answering with a file writes that file's formats;
 * any other prints its response in every format but parquet, which only a file can be.
 */
function outputFormats(command: ApiCommand | undefined): string[] {
  const file = command?.output.file;
  if (file) return file.flatMap((type) => FORMAT_OF_MEDIA_TYPE[type] ?? []);
  return formats.filter((format) => format !== "parquet");
}

/** The global flags' values at one position, --format being that position's formats. */
function globalValues(flags: FlagSpec[], formatValues: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const flag of flags) {
    if (flag.values) out[`--${flag.flag}`] = flag.flag === "format" ? formatValues : flag.values;
  }
  return out;
}

const helpWord = { word: "--help", description: "Show help" };

function flagWord(flag: FlagSpec) {
  return { word: `--${flag.flag}`, description: flag.description };
}

const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim();

export function completionScript(tree: CommandTree, shell: string): string {
  const table = completionTable(tree);
  switch (shell) {
    case "bash":
      return bash(table);
    case "zsh":
      return zsh(table);
    case "fish":
      return fish(table);
    case "powershell":
      return powershell(table);
    case "elvish":
      return elvish(table);
    default:
      throw new Error(`no completion for ${shell}`);
  }
}
