import type { Command, CommanderError } from "commander";
import { nearest, scanArgv } from "./argv";
import {
  type Context,
  errorFormat,
  type GlobalOptions,
  type Io,
  processIo,
  resolveFormat,
  write,
} from "./context";
import { readSettings } from "./env";
import { asCliError, CliError, errorLine, errorObject, exitCodes, usageError } from "./errors";
import type { CommandTree } from "./spec/command-tree";
import { commandTree } from "./spec/document";
import { VERSION } from "./version";

/** Runs the CLI with the arguments after `svc`; resolves to the exit code. */
export async function run(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const scan = scanArgv(argv);
  let program: Command | undefined;
  try {
    if (scan.positionals.length === 0 && argv.some((arg) => arg === "--version" || arg === "-V")) {
      io.stdout.write(`svc ${VERSION}\n`);
      return exitCodes.ok;
    }
    const tree = commandTree();
    if (scan.schema) return await printSchema(tree, scan.positionals, io);
    if (!scan.help) {
      const missing = missingCommand(tree, scan.positionals);
      if (missing) throw missing;
    }
    const { buildProgram } = await import("./program");
    const [resource, command] = scan.positionals;
    // Typed as `svc <resource> <command> …`, the line is dispatched on its first two words.
    const wanted = argv[0] === resource && argv[1] === command ? { resource, command } : { resource };
    let exit: number = exitCodes.ok;
    program = buildProgram(
      tree,
      {
        api: async (command, values, json) => {
          const ctx = context(tree, io, program?.opts() ?? {});
          const { runApiCommand } = await import("./commands/api");
          await runApiCommand(ctx, command, values, json);
        },
        local: async (group, name, options, argument) => {
          const ctx = context(tree, io, program?.opts() ?? {});
          exit = await runLocal(ctx, group, name, options, argument);
        },
      },
      wanted,
      {
        writeOut: (text) => io.stdout.write(text),
        writeErr: (text) => io.stderr.write(text),
        outputError: () => undefined,
      },
    );
    await program.parseAsync([...argv], { from: "user" });
    return exit;
  } catch (error) {
    const failure = isCommanderError(error)
      ? fromCommander(withLongerFlag(error, program, scan.positionals))
      : asCliError(error);
    if (failure === undefined) return exitCodes.ok;
    report(failure, io, scan.format);
    return failure.exit;
  }
}

function context(tree: CommandTree, io: Io, options: Record<string, unknown>): Context {
  const settings = readSettings(io.env);
  const globals: GlobalOptions = {
    format: resolveFormat(options.format as string | undefined, settings, io),
    query: options.query as string | undefined,
    dryRun: options.dryRun === true,
    quiet: options.quiet === true,
    debug: options.debug === true,
    pageAll: options.pageAll === true,
    maxItems: options.maxItems as number | undefined,
  };
  return { tree, io, settings, globals };
}

async function runLocal(
  ctx: Context,
  group: string,
  name: string,
  options: Record<string, unknown>,
  argument: string | undefined,
): Promise<number> {
  const key = group ? `${group} ${name}` : name;
  if (ctx.globals.format === "parquet") {
    const { parquetIsForFiles } = await import("./commands/api-output");
    throw parquetIsForFiles();
  }
  switch (key) {
    case "auth login": {
      const [{ login }, { promptSecret }] = await Promise.all([
        import("./commands/auth"),
        import("./auth/prompt"),
      ]);
      await login(ctx, options.withToken === true, () =>
        promptSecret("Paste your API key (input is hidden): "),
      );
      return exitCodes.ok;
    }
    case "auth status": {
      const { status } = await import("./commands/auth");
      return status(ctx);
    }
    case "auth logout": {
      const { logout } = await import("./commands/auth");
      await logout(ctx);
      return exitCodes.ok;
    }
    case "completion": {
      const { completionScript } = await import("./generate/completion");
      write(ctx, completionScript(ctx.tree, argument ?? ""));
      return exitCodes.ok;
    }
    case "man": {
      const { manPage } = await import("./generate/man");
      write(ctx, manPage(ctx.tree));
      return exitCodes.ok;
    }
    case "generate-skills": {
      const { writeSkills } = await import("./generate/skills");
      const dir = typeof options.dir === "string" ? options.dir : "skills/svc";
      const files = writeSkills(ctx.tree, dir);
      if (!ctx.globals.quiet) ctx.io.stderr.write(`Wrote ${files.length} files to ${dir}\n`);
      return exitCodes.ok;
    }
    default:
      throw new Error(`no handler for ${key}`);
  }
}

async function printSchema(tree: CommandTree, positionals: string[], io: Io): Promise<number> {
  const schema = await import("./generate/schema");
  const [resourceName, commandName] = positionals;
  let value: unknown;
  if (resourceName === undefined) value = schema.rootSchema(tree);
  else {
    const resource = tree.resources.find((candidate) => candidate.name === resourceName);
    if (!resource) {
      const local = tree.local.find((group) => group.group === resourceName);
      if (!local)
        throw unknown(
          "resource",
          resourceName,
          tree.resources.map((r) => r.name),
        );
      value = { name: local.group, description: local.description, commands: local.commands };
    } else if (commandName === undefined) value = schema.resourceSchema(tree, resource);
    else {
      const command = resource.commands.find((candidate) => candidate.name === commandName);
      if (!command)
        throw unknown(
          "command",
          commandName,
          resource.commands.map((c) => c.name),
          resource.name,
        );
      value = schema.commandSchema(tree, command);
    }
  }
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  return exitCodes.ok;
}

/**
 * `svc` or `svc datasets` alone: a usage error (exit 3) in one line that names what can follow, not
 * a page of help on standard error. `--help` asks for the help.
 */
export function missingCommand(tree: CommandTree, positionals: readonly string[]): CliError | undefined {
  if (positionals.length === 0) {
    const names = [
      ...tree.resources.map((resource) => resource.name),
      ...tree.local.flatMap((group) => (group.group ? [group.group] : group.commands.map((c) => c.name))),
    ];
    return usageError(
      "a resource is required: svc <resource> <command> [flags]",
      `one of: ${names.join(", ")}; see \`svc --help\``,
      "missing_command",
    );
  }
  if (positionals.length !== 1) return undefined;
  const [name] = positionals;
  const commands =
    tree.resources.find((resource) => resource.name === name)?.commands ??
    tree.local.find((group) => group.group !== "" && group.group === name)?.commands;
  if (!commands) return undefined;
  return usageError(
    `a command is required: svc ${name} <command> [flags]`,
    `one of: ${commands.map((command) => command.name).join(", ")}; see \`svc ${name} --help\``,
    "missing_command",
  );
}

function unknown(kind: string, name: string, candidates: string[], parent?: string): CliError {
  const suggestion = nearest(name, candidates);
  const where = parent ? ` of ${parent}` : "";
  return usageError(
    `unknown ${kind}${where} "${name}"${suggestion ? `; did you mean "${suggestion}"?` : ""}`,
    `see \`svc ${parent ? `${parent} ` : ""}--help\``,
    kind === "resource" || kind === "command" ? "unknown_command" : "usage_error",
  );
}

function isCommanderError(error: unknown): error is CommanderError {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === "string" && code.startsWith("commander.");
}

/**
 * Commander suggests a flag within a small edit distance of an unknown one; a flag that begins
 * exactly one of the command's flags is suggested too (`--project` for `--project-slug`).
 */
function withLongerFlag(
  error: CommanderError,
  program: Command | undefined,
  words: string[],
): CommanderError {
  const flag = /^error: unknown option '(--[^']+)'$/.exec(error.message)?.[1];
  if (error.code !== "commander.unknownOption" || flag === undefined || program === undefined) return error;
  const commands = [program];
  for (const word of words) {
    const next = commands.at(-1)?.commands.find((command) => command.name() === word);
    if (next === undefined) break;
    commands.push(next);
  }
  const longer = commands
    .flatMap((command) => command.options.map((option) => option.long))
    .filter((long): long is string => long?.startsWith(`${flag}-`) === true);
  if (longer.length === 1) error.message += `\n(Did you mean ${longer[0]}?)`;
  return error;
}

/** Commander's own outcomes: help and version are success; everything else is a usage error. */
function fromCommander(error: CommanderError): CliError | undefined {
  if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return undefined;
  const message = error.message
    .replace(/^error:\s*/, "")
    .replace(/\n/g, " ")
    .trim();
  const code =
    error.code === "commander.unknownCommand"
      ? "unknown_command"
      : error.code === "commander.unknownOption"
        ? "unknown_flag"
        : "usage_error";
  const hint = error.code === "commander.help" ? "a command is missing; see --help" : "see --help";
  const text = error.code === "commander.help" ? "a command is required" : message;
  return usageError(text, hint, code);
}

/** One line for a person, or one JSON object for programs, on standard error; never a stack trace. */
function report(error: CliError, io: Io, formatFlag: string | undefined): void {
  const format = errorFormat(formatFlag, io);
  const machine = format === "json" || format === "jsonl" || !io.stderr.isTTY;
  io.stderr.write(machine ? `${JSON.stringify(errorObject(error))}\n` : `${errorLine(error)}\n`);
}

export { CliError };
