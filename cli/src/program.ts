import { Command, CommanderError, Option, type OutputConfiguration } from "commander";
import type { Context } from "./context";
import type { ApiCommand, CommandTree, FlagSpec, Input, LocalCommand, Resource } from "./spec/command-tree";

export interface Handlers {
  api(command: ApiCommand, values: Map<Input, string | true>, json: string | undefined): Promise<void>;
  local(
    group: string,
    name: string,
    options: Record<string, unknown>,
    argument: string | undefined,
  ): Promise<void>;
}

/** The resource named on the command line, and its command when the line starts with both. */
export interface Wanted {
  resource: string | undefined;
  command?: string | undefined;
}

/**
 * The commander program for the command tree, which keeps startup short by building only what the
 * command line can reach. A line that starts `svc <resource> <command>` is dispatched on those two
 * words, so the program holds that one command. Otherwise every resource is listed by name and
 * description, and the resource named on the command line gets its commands. Every command writes
 * its help and errors through `output`.
 */
export function buildProgram(
  tree: CommandTree,
  handlers: Handlers,
  wanted: Wanted,
  output: OutputConfiguration,
): Command {
  const program = new Command("svc")
    .description(`The command-line client of the ${tree.title}: svc <resource> <command> [flags]`)
    .usage("<resource> <command> [flags]")
    .showSuggestionAfterError(true)
    .configureHelp(helpSettings(false))
    .helpCommand(false);
  for (const flag of tree.globalFlags) program.addOption(globalOption(flag));
  program.addHelpText(
    "after",
    "\nEnvironment: SVC_API_KEY, SVC_BASE_URL, SVC_OUTPUT, SVC_PROJECT_SLUG, SVC_TIMEOUT_SECS, SVC_PROXY, SVC_CA_BUNDLE, SVC_INSECURE.\nExit codes: 0 ok, 1 API error, 2 authentication, 3 usage, 4 network, 5 bug, 6 regression (--fail-on-regression). `svc man` has everything.",
  );

  const resource = tree.resources.find((candidate) => candidate.name === wanted.resource);
  const only = resource?.commands.find((candidate) => candidate.name === wanted.command);
  if (resource && only) {
    addApiCommand(addResource(program, resource), only, handlers);
  } else {
    for (const listed of tree.resources) {
      const group = addResource(program, listed);
      if (wanted.resource === undefined || listed === resource) {
        for (const api of listed.commands) addApiCommand(group, api, handlers);
      }
    }
    for (const local of tree.local) {
      const parent = local.group ? program.command(local.group).description(local.description) : program;
      for (const command of local.commands) addLocalCommand(parent, local.group, command, handlers);
    }
  }
  applyToAll(program, (command) => {
    command.exitOverride();
    command.configureOutput(output);
    command.allowExcessArguments(false);
    command.helpCommand(false);
    // Global flags are listed under each command; a resource's help stays a short list of commands.
    if (command.commands.length === 0) command.configureHelp(helpSettings(true));
  });
  return program;
}

function addResource(program: Command, resource: Resource): Command {
  return program.command(resource.name).description(resource.description).usage("<command> [flags]");
}

function helpSettings(showGlobalOptions: boolean) {
  return {
    showGlobalOptions,
    sortSubcommands: false,
    subcommandTerm: (command: Command) => command.name(),
  };
}

function applyToAll(command: Command, apply: (command: Command) => void): void {
  apply(command);
  for (const sub of command.commands) applyToAll(sub, apply);
}

function globalOption(flag: FlagSpec): Option {
  const names = `${flag.short ? `-${flag.short}, ` : ""}--${flag.flag}${flag.value ? ` <${flag.value}>` : ""}`;
  const option = new Option(names, flag.description);
  if (flag.values) option.choices(flag.values);
  if (flag.flag === "max-items") {
    option.argParser((raw: string) => {
      const value = Number(raw);
      if (!Number.isInteger(value) || value < 1) {
        throw new CommanderError(
          3,
          "commander.invalidArgument",
          `--max-items must be a positive integer, not "${raw}"`,
        );
      }
      return value;
    });
  }
  return option;
}

function addApiCommand(group: Command, api: ApiCommand, handlers: Handlers): void {
  const command = group.command(api.name).summary(api.summary).description(describe(api));
  const byAttribute = new Map<string, Input>();
  for (const input of api.inputs) {
    const option = new Option(
      `--${input.flag} ${input.kind === "boolean" ? "[bool]" : `<${placeholder(input)}>`}`,
      inputHelp(input),
    );
    byAttribute.set(option.attributeName(), input);
    command.addOption(option);
  }
  if (api.body) {
    command.addOption(
      new Option("--json <body>", "The whole request body: a JSON object, @file, or - for standard input"),
    );
  }
  const positional = (api.positional ?? []).flatMap((name) => {
    const input = api.inputs.find((candidate) => candidate.name === name);
    return input ? [input] : [];
  });
  for (const input of positional) {
    command.argument(`[${input.flag}]`, `The same as --${input.flag}`);
  }
  command.action(async (...args: unknown[]) => {
    const options = args[positional.length] as Record<string, unknown>;
    const values = new Map<Input, string | true>();
    for (const [attribute, input] of byAttribute) {
      const value = options[attribute];
      if (typeof value === "string" || value === true) values.set(input, value);
    }
    positional.forEach((input, i) => {
      const value = args[i];
      if (typeof value !== "string") return;
      if (values.has(input)) {
        throw new CommanderError(
          3,
          "commander.conflict",
          `give ${input.flag} once: as an argument or as --${input.flag}`,
        );
      }
      values.set(input, value);
    });
    await handlers.api(api, values, typeof options.json === "string" ? options.json : undefined);
  });
}

function describe(api: ApiCommand): string {
  const lines = [api.description || api.summary, "", `${api.method} ${api.path}`];
  if (api.paginated) lines.push("Paginated: --page-all follows nextCursor; --max-items caps it.");
  if (api.upload) {
    lines.push(
      "svc sends the file (with a progress bar on a terminal) and waits for the import to end: it prints the finished import, or exits 1 with what stopped it.",
    );
  }
  if (api.output.file) {
    lines.push(
      "svc streams the file as it arrives (--format csv, jsonl or parquet) to standard output, or with --output to a file, whole or not at all.",
    );
  }
  return lines.join("\n");
}

function placeholder(input: Input): string {
  if (input.kind === "json") return "json";
  if (input.kind === "integer" || input.kind === "number") return "n";
  return input.location === "path" ? input.flag.replace(/-id$|-slug$/, (end) => end) : "value";
}

function inputHelp(input: Input): string {
  const words = input.name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  const parts = [
    input.description ?? `The ${words} (${input.location === "body" ? "body field" : input.location})`,
  ];
  if (input.enum) parts.push(`one of: ${input.enum.join(", ")}`);
  if (input.default !== undefined) parts.push(`default: ${JSON.stringify(input.default)}`);
  if (input.kind === "json") parts.push(input.acceptsString ? "JSON, or a plain word as a string" : "JSON");
  if (input.nullable && input.kind !== "json") parts.push("null clears it");
  if (input.location === "path" && input.name === "projectSlug") parts.push("default: $SVC_PROJECT_SLUG");
  if (input.required) parts.push("required");
  return parts.join("; ");
}

function addLocalCommand(parent: Command, group: string, local: LocalCommand, handlers: Handlers): void {
  const command = parent
    .command(local.name)
    .summary(local.summary)
    .description(`${local.summary}\n\n${local.description}`);
  if (local.argument) {
    const argument = command.createArgument(
      local.argument.required ? `<${local.argument.name}>` : `[${local.argument.name}]`,
      `one of: ${local.argument.values.join(", ")}`,
    );
    argument.choices(local.argument.values);
    command.addArgument(argument);
  }
  for (const flag of local.flags) {
    command.addOption(new Option(`--${flag.flag}${flag.value ? ` <${flag.value}>` : ""}`, flag.description));
  }
  command.action(async (...args: unknown[]) => {
    const argument = local.argument ? (args[0] as string | undefined) : undefined;
    const options = (local.argument ? args[1] : args[0]) as Record<string, unknown>;
    await handlers.local(group, local.name, options, argument);
  });
}

/** Global flags as parsed by commander, from any command. */
export function globalsOf(command: Command): Record<string, unknown> {
  return command.optsWithGlobals();
}

export type { Context };
