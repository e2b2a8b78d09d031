import type { ApiCommand, CommandTree, FlagSpec, Input } from "../spec/command-tree";
import { RELEASE_DATE, VERSION } from "../version";
import { exitCodeTable } from "./schema";

/** Text made safe for roff: backslashes, leading dots and quotes, and hyphens in option names. */
function esc(text: string): string {
  return text
    .replace(/\\/g, "\\e")
    .replace(/-/g, "\\-")
    .replace(/`/g, "")
    .replace(/\s*\n\s*/g, " ")
    .replace(/^([.'])/, "\\&$1");
}

/** Prose: as `esc`, but hyphens stay hyphens. */
function prose(text: string): string {
  return text
    .replace(/\\/g, "\\e")
    .replace(/`/g, "")
    .replace(/\s*\n\s*/g, " ")
    .replace(/^([.'])/, "\\&$1")
    .trim();
}

const quoted = (text: string): string => `"${text.replace(/"/g, "\\(dq")}"`;

function flagLine(flag: string, value: string | undefined): string {
  return value ? `.BI ${esc(`--${flag}`)} " ${esc(value)}"` : `.B ${esc(`--${flag}`)}`;
}

/** One roff manual page (section 1) covering every command. */
export function manPage(tree: CommandTree): string {
  const out: string[] = [
    `.TH SVC 1 ${RELEASE_DATE} ${quoted(`svc ${VERSION}`)} ${quoted("svc manual")}`,
    ".SH NAME",
    `svc \\- command\\-line client of the ${prose(tree.title)}`,
    ".SH SYNOPSIS",
    ".B svc",
    ".I resource command",
    ".RI [ flags ]",
    ".br",
    ".B svc",
    ".B \\-\\-version",
    ".SH DESCRIPTION",
    "Every operation of the API is a command, named after its resource and its action.",
    "Path, query and body fields are flags in kebab case; a flag that takes any JSON value",
    "parses its value as JSON, and a plain word that is not JSON is taken as a string.",
    ".B \\-\\-json",
    "gives the whole body (an object,",
    ".BI @ file ,",
    "or",
    ".B \\-",
    "for standard input); flags override its fields.",
    ".SH OPTIONS",
    "These flags are accepted by every command.",
  ];
  for (const flag of tree.globalFlags) out.push(...globalFlag(flag));
  out.push(
    ".TP",
    ".B \\-\\-help",
    "Show help for the command.",
    ".TP",
    ".B \\-\\-version",
    "Print the version.",
  );

  out.push(".SH COMMANDS");
  for (const resource of tree.resources) {
    out.push(`.SS ${esc(resource.name)}`);
    if (resource.description) out.push(prose(resource.description));
    for (const command of resource.commands) out.push(...apiCommand(command));
  }
  out.push(".SS Other commands");
  for (const group of tree.local) {
    for (const command of group.commands) {
      const name = ["svc", group.group, command.name].filter(Boolean).join(" ");
      const argument = command.argument ? ` ${command.argument.values.join("|")}` : "";
      out.push(
        ".TP",
        `.B ${esc(name)}${argument ? ` ${quoted(esc(argument))}` : ""}`,
        prose(command.summary),
      );
      if (command.description) out.push(".br", prose(command.description));
      for (const flag of command.flags)
        out.push(".br", `${flagLine(flag.flag, flag.value)}`, prose(flag.description));
    }
  }

  out.push(
    ".SH ENVIRONMENT",
    ...envEntry("SVC_API_KEY", "The API key; it wins over the key stored by svc auth login."),
    ...envEntry("SVC_ADMIN_TOKEN", "The operator token, for operator commands such as organizations create."),
    ...envEntry("SVC_BASE_URL", "Base address of the API; default http://127.0.0.1:8080."),
    ...envEntry("SVC_OUTPUT", "Default output format when --format is not given."),
    ...envEntry("SVC_PROJECT_SLUG", "Default for --project-slug."),
    ...envEntry("SVC_TIMEOUT_SECS", "Total time for a request, retries included, in seconds; default 60."),
    ...envEntry(
      "SVC_PROXY",
      "HTTP or HTTPS proxy for every request (http://host:port, https://host:port); overrides HTTPS_PROXY and HTTP_PROXY.",
    ),
    ...envEntry("HTTPS_PROXY, HTTP_PROXY, NO_PROXY", "The usual proxy settings, in upper or lower case."),
    ...envEntry("SVC_CA_BUNDLE", "PEM file of certificate authorities trusted besides the built-in ones."),
    ...envEntry("SSL_CERT_FILE", "PEM file of certificate authorities trusted instead of the built-in ones."),
    ...envEntry("SVC_INSECURE", "1 skips TLS verification, with a warning on standard error every time."),
    ...envEntry("NO_COLOR", "Disables colour."),
    ".SH FILES",
    "The API key stored by",
    ".B svc auth login",
    "lives in the system's secret store (the Secret Service on Linux) under service",
    ".I svc",
    "and account",
    ".IR ApiKeyAuth ;",
    "on Linux,",
    ".B secret\\-tool lookup service svc account ApiKeyAuth",
    "prints it.",
    ".SH EXIT STATUS",
  );
  for (const [code, meaning] of Object.entries(exitCodeTable)) out.push(".TP", `.B ${code}`, prose(meaning));
  out.push(
    ".SH DIAGNOSTICS",
    "On failure standard output stays empty and standard error gets one line, or, when the format is",
    "json or jsonl or standard error is not a terminal, one JSON object with the fields",
    '.IR error , code , status , requestId " and" hint .',
  );
  // The examples are added after the filled text is wrapped: a wrapped example is a broken command.
  return `${[...out.flatMap(wrap), ".SH EXAMPLES", ...exampleBlock(manExamples)].join("\n")}\n`;
}

/** The EXAMPLES section as typed at a shell prompt; the page shows each line exactly so. */
export const manExamples = [
  "svc projects list",
  "svc datasets list --project-slug support",
  "svc datasets update-row --project-slug p --dataset-slug d --row-id r \\",
  `    --expected-output '{"a":1}'`,
  "svc datasets list-rows --project-slug p --dataset-slug d --page-all --format jsonl",
];

/** Characters that roff would change: each becomes the escape that prints it as typed. */
const LITERAL: Record<string, string> = {
  "\\": "\\e",
  "-": "\\-",
  "'": "\\(aq",
  "`": "\\(ga",
  "^": "\\(ha",
  "~": "\\(ti",
};

/**
 * Lines shown verbatim: in no-fill mode (.EX/.EE), so the formatter neither joins nor breaks them,
 * whatever the width of the terminal. A source line over 80 bytes (mandoc's style check) is split
 * with an escaped newline, which roff joins back before formatting.
 */
export function exampleBlock(lines: string[]): string[] {
  return [".EX", ...lines.flatMap(literalLine), ".EE"];
}

function literalLine(text: string): string[] {
  const pieces = [...text].map((char) => LITERAL[char] ?? char);
  const out: string[] = [];
  let current = "";
  for (const piece of pieces) {
    // 79 bytes leave room for the `\`; `\&` keeps a line's leading dot from reading as a request.
    if (current !== "" && Buffer.byteLength(current + piece) > 79) {
      out.push(`${current}\\`);
      current = "";
    }
    current += current === "" && piece === "." ? "\\&." : piece;
  }
  out.push(current === "" ? "\\&" : current);
  return out;
}

/** Text lines longer than 80 bytes are split at spaces (mandoc's style check asks for it). */
function wrap(line: string): string[] {
  if (line.startsWith(".") || Buffer.byteLength(line) <= 80) return [line];
  const lines: string[] = [];
  let current = "";
  for (const word of line.split(" ")) {
    const candidate = current ? `${current} ${word}` : word;
    if (Buffer.byteLength(candidate) > 80 && current) {
      lines.push(current);
      current = word;
    } else {
      current = candidate;
    }
  }
  if (current) lines.push(current);
  return lines.map((text) => text.replace(/^([.'])/, "\\&$1"));
}

function globalFlag(flag: FlagSpec): string[] {
  const names = flag.short
    ? `.BR ${esc(`-${flag.short}`)} ", " ${esc(`--${flag.flag}`)}`
    : flagLine(flag.flag, flag.value);
  const values = flag.values ? ` One of: ${flag.values.join(", ")}.` : "";
  return [".TP", names, `${prose(flag.description)}.${values}`];
}

function apiCommand(command: ApiCommand): string[] {
  const out = [
    ".TP",
    `.B ${esc(`svc ${command.resource} ${command.name}`)}`,
    `${prose(command.summary)}.`,
    ".br",
    `.I ${esc(`${command.method} ${command.path}`)}`,
  ];
  for (const input of command.inputs) out.push(".br", ...inputLine(input));
  if (command.body) out.push(".br", flagLine("json", "body"), "the whole request body.");
  return out;
}

function inputLine(input: Input): string[] {
  const notes = [input.description ? prose(input.description) : `${input.location} ${input.kind}`];
  if (input.enum) notes.push(`one of ${input.enum.join(", ")}`);
  if (input.default !== undefined) notes.push(`default ${JSON.stringify(input.default)}`);
  if (input.required) notes.push("required");
  return [flagLine(input.flag, input.kind === "json" ? "json" : "value"), notes.join("; ")];
}

function envEntry(name: string, text: string): string[] {
  return [".TP", `.B ${esc(name)}`, prose(text)];
}
