import type { CompletionTable } from "./completion-table";

/* The completion table as a script for each shell: the table decides, a script only looks it up. */

const sq = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * The value lists as shell `case` patterns on "<position> <flag>": each position's own, then the
 * root's as a fallback for any position without its own (`*' --format'`).
 */
function valueCases(table: CompletionTable): { pattern: string; values: string[] }[] {
  const cases: { pattern: string; values: string[] }[] = [];
  for (const [key, flags] of Object.entries(table.values)) {
    if (key === "") continue;
    for (const [flag, values] of Object.entries(flags)) cases.push({ pattern: sq(`${key} ${flag}`), values });
  }
  for (const [flag, values] of Object.entries(table.values[""] ?? {})) {
    cases.push({ pattern: `*${sq(` ${flag}`)}`, values });
  }
  return cases;
}

/** The value lists keyed "<position> <flag>", the root's being " <flag>". */
function flatValues(table: CompletionTable): [string, string[]][] {
  return Object.entries(table.values).flatMap(([key, flags]) =>
    Object.entries(flags).map(([flag, values]): [string, string[]] => [`${key} ${flag}`, values]),
  );
}

/**
 * bash and zsh alike: gather the words before the cursor that are not flags into `positional`, passing
 * over each value flag's value; `loop` counts `i` over those words, which are in the array `words`.
 */
function gatherPositional(table: CompletionTable, loop: string, words: string): string {
  return `  for ((${loop})); do
    word="\${${words}[i]}"
    if ((skip)); then skip=0; continue; fi
    case " ${table.valueFlags.join(" ")} " in
      *" $word "*) skip=1; continue ;;
    esac
    [[ $word == -* ]] || positional+=("$word")
  done`;
}

/**
 * bash and zsh alike: after a flag with a value list, `offer` that list and stop; after any other value
 * flag, do `none` (offer nothing).
 */
function offerValues(table: CompletionTable, offer: (values: string[]) => string, none: string): string {
  const cases = valueCases(table)
    .map(({ pattern, values }) => `    ${pattern}) ${offer(values)}; return ;;`)
    .join("\n");
  return `  case "$key $prev" in
${cases}
  esac
  case " ${table.valueFlags.join(" ")} " in
    *" $prev "*) ${none} ;;
  esac`;
}

export function bash(table: CompletionTable): string {
  const cases = Object.entries(table.words)
    .map(([key, list]) => `    ${sq(key)}) words=${sq(list.map((entry) => entry.word).join(" "))} ;;`)
    .join("\n");
  const values = offerValues(
    table,
    (values) => `COMPREPLY=($(compgen -W ${sq(values.join(" "))} -- "$cur"))`,
    "COMPREPLY=(); return",
  );
  return `# bash completion for svc. Load it with: source <(svc completion bash)
_svc_completion() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" words="" key="" word skip=0 i
  local -a positional=()
  ((COMP_CWORD > 0)) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
${gatherPositional(table, "i = 1; i < COMP_CWORD; i++", "COMP_WORDS")}
  key="\${positional[*]:0:2}"
${values}
  case "$key" in
${cases}
    *) words="" ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _svc_completion svc
`;
}

export function zsh(table: CompletionTable): string {
  const entries = Object.entries(table.words)
    .map(([key, list]) => {
      const items = list
        .map((entry) => sq(`${entry.word.replace(/:/g, "\\:")}:${entry.description}`))
        .join(" ");
      return `    ${sq(key)}) candidates=(${items}) ;;`;
    })
    .join("\n");
  const values = offerValues(table, (values) => `compadd -- ${values.map(sq).join(" ")}`, "return");
  return `#compdef svc
# zsh completion for svc. Load it with: source <(svc completion zsh)
_svc() {
  local -a positional candidates
  local word prev key skip=0 i
${gatherPositional(table, "i = 2; i < CURRENT; i++", "words")}
  prev="\${words[CURRENT-1]}"
  key="\${(j: :)positional[1,2]}"
${values}
  case "$key" in
${entries}
    *) return ;;
  esac
  _describe -t commands 'svc' candidates
}
if (( $+functions[compdef] )); then
  compdef _svc svc
fi
`;
}

export function fish(table: CompletionTable): string {
  const lines = [
    "# fish completion for svc. Load it with: svc completion fish | source",
    "function __svc_position",
    "    set -l tokens (commandline -opc)",
    "    set -e tokens[1]",
    "    set -l out",
    "    set -l skip 0",
    "    for token in $tokens",
    "        if test $skip = 1",
    "            set skip 0",
    "            continue",
    "        end",
    `        if contains -- $token ${table.valueFlags.join(" ")}`,
    "            set skip 1",
    "            continue",
    "        end",
    "        string match -q -- '-*' $token; or set out $out $token",
    "    end",
    '    echo (string join " " $out[1..2])',
    "end",
    "function __svc_at",
    '    test (__svc_position) = "$argv"',
    "end",
    "complete -c svc -f",
  ];
  for (const [key, list] of Object.entries(table.words)) {
    for (const entry of list) {
      const condition = `-n ${sq(`__svc_at ${key}`)}`;
      const description = `-d ${sq(entry.description.slice(0, 100))}`;
      if (entry.word.startsWith("--")) {
        const flag = entry.word.slice(2);
        const takesValue = table.valueFlags.includes(entry.word);
        const values = table.values[key]?.[entry.word] ?? table.values[""]?.[entry.word];
        const valuePart = takesValue ? (values ? ` -x -a ${sq(values.join(" "))}` : " -r") : "";
        lines.push(`complete -c svc ${condition} -l ${flag}${valuePart} ${description}`);
      } else {
        lines.push(`complete -c svc ${condition} -a ${sq(entry.word)} ${description}`);
      }
    }
  }
  return `${lines.join("\n")}\n`;
}

export function powershell(table: CompletionTable): string {
  const ps = (text: string) => `'${text.replace(/'/g, "''")}'`;
  const entries = Object.entries(table.words)
    .map(([key, list]) => `    ${ps(key)} = @(${list.map((entry) => ps(entry.word)).join(", ")})`)
    .join("\n");
  const values = flatValues(table)
    .map(([key, list]) => `    ${ps(key)} = @(${list.map(ps).join(", ")})`)
    .join("\n");
  return `# PowerShell completion for svc. Load it with: svc completion powershell | Out-String | Invoke-Expression
Register-ArgumentCompleter -Native -CommandName svc -ScriptBlock {
  param($wordToComplete, $commandAst, $cursorPosition)
  $table = @{
${entries}
  }
  $values = @{
${values}
  }
  $valueFlags = @(${table.valueFlags.map(ps).join(", ")})
  $tokens = @($commandAst.CommandElements | Select-Object -Skip 1 | ForEach-Object { $_.ToString() })
  if ($wordToComplete -ne '' -and $tokens.Count -gt 0) { $tokens = @($tokens | Select-Object -SkipLast 1) }
  $positional = @()
  $skip = $false
  foreach ($token in $tokens) {
    if ($skip) { $skip = $false; continue }
    if ($valueFlags -contains $token) { $skip = $true; continue }
    if (-not $token.StartsWith('-')) { $positional += $token }
  }
  $previous = if ($tokens.Count -gt 0) { $tokens[-1] } else { '' }
  $key = ($positional | Select-Object -First 2) -join ' '
  if ($values.ContainsKey("$key $previous")) { $candidates = $values["$key $previous"] }
  elseif ($values.ContainsKey(" $previous")) { $candidates = $values[" $previous"] }
  elseif ($valueFlags -contains $previous) { return }
  else { $candidates = if ($table.ContainsKey($key)) { $table[$key] } else { @() } }
  $candidates | Where-Object { $_ -like "$wordToComplete*" } | ForEach-Object {
    [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
  }
}
`;
}

export function elvish(table: CompletionTable): string {
  const el = (text: string) => `'${text.replace(/'/g, "''")}'`;
  const entries = Object.entries(table.words)
    .map(([key, list]) => `  &${el(key)}=[${list.map((entry) => el(entry.word)).join(" ")}]`)
    .join("\n");
  const values = flatValues(table)
    .map(([key, list]) => `  &${el(key)}=[${list.map(el).join(" ")}]`)
    .join("\n");
  return `# elvish completion for svc. Load it with: eval (svc completion elvish | slurp)
use str
var svc-table = [
${entries}
]
var svc-values = [
${values}
]
var svc-value-flags = [${table.valueFlags.map(el).join(" ")}]
set edit:completion:arg-completer[svc] = {|@words|
  var current = $words[-1]
  var before = $words[1..-1]
  var positional = []
  var skip = $false
  for w $before {
    if $skip { set skip = $false; continue }
    if (has-value $svc-value-flags $w) { set skip = $true; continue }
    if (not (str:has-prefix $w '-')) { set positional = [$@positional $w] }
  }
  var previous = ''
  if (> (count $before) 0) { set previous = $before[-1] }
  var n = (count $positional)
  if (> $n 2) { set n = 2 }
  var key = (str:join ' ' $positional[0..$n])
  var own = (str:join ' ' [$key $previous])
  var fallback = (str:join ' ' ['' $previous])
  if (has-key $svc-values $own) {
    all $svc-values[$own]
  } elif (has-key $svc-values $fallback) {
    all $svc-values[$fallback]
  } elif (has-value $svc-value-flags $previous) {
    return
  } elif (has-key $svc-table $key) {
    all $svc-table[$key]
  }
}
`;
}
