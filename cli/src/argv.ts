import { globalFlags } from "./spec/local-commands";

/** What must be known about the arguments before they are parsed in full. */
export interface ArgvScan {
  /** The first words that are not flags: resource and command. */
  positionals: string[];
  format: string | undefined;
  schema: boolean;
  quiet: boolean;
  /** `--help` or `-h` anywhere before `--`. */
  help: boolean;
}

const VALUE_FLAGS = new Set(globalFlags.filter((flag) => flag.value).map((flag) => `--${flag.flag}`));

/**
 * A quick look at the arguments: global flags and the first two words. Flags of a command come after
 * its name, so the words before them are the resource and the command.
 */
export function scanArgv(argv: readonly string[]): ArgvScan {
  const scan: ArgvScan = { positionals: [], format: undefined, schema: false, quiet: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--") break;
    const [name, inline] = arg.startsWith("--") ? splitInline(arg) : [arg, undefined];
    if (name === "--schema") scan.schema = true;
    else if (name === "--help" || name === "-h") scan.help = true;
    else if (name === "--quiet" || name === "-q") scan.quiet = true;
    else if (name === "--format") scan.format = inline ?? argv[i + 1];
    if (VALUE_FLAGS.has(name) && inline === undefined) i++;
    else if (!arg.startsWith("-") && scan.positionals.length < 2) scan.positionals.push(arg);
    else if (arg.startsWith("-") && scan.positionals.length >= 1) {
      // A command's own flag: its value (if any) must not be taken for a command name.
      if (scan.positionals.length === 1 && inline === undefined && !isSwitch(name)) i++;
    }
  }
  return scan;
}

function splitInline(arg: string): [string, string | undefined] {
  const at = arg.indexOf("=");
  return at < 0 ? [arg, undefined] : [arg.slice(0, at), arg.slice(at + 1)];
}

const SWITCHES = new Set([
  ...globalFlags.filter((flag) => !flag.value).map((flag) => `--${flag.flag}`),
  "-q",
  "-h",
  "--help",
  "--with-token",
]);
const isSwitch = (name: string): boolean => SWITCHES.has(name);

/** The closest candidate within a small edit distance, for "did you mean …?". */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const limit = Math.max(2, Math.floor(word.length * 0.4));
  if (best !== undefined && (bestDistance <= limit || best.startsWith(word) || word.startsWith(best))) {
    return best;
  }
  return undefined;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] ?? 0;
      row[j] = Math.min(current + 1, (row[j - 1] ?? 0) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length] ?? 0;
}
