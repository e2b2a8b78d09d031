import type { FlagSpec, LocalGroup } from "./command-tree";

/* The commands and flags the CLI has of its own, beside those it makes from the API. */

export const formats = ["table", "json", "jsonl", "yaml", "csv", "raw", "http", "parquet"] as const;
export type Format = (typeof formats)[number];
export const shells = ["bash", "zsh", "fish", "powershell", "elvish"] as const;

export const globalFlags: FlagSpec[] = [
  {
    flag: "format",
    value: "format",
    values: [...formats],
    description: "Output format (default: SVC_OUTPUT, else table on a terminal and json otherwise)",
  },
  { flag: "query", value: "jmespath", description: "JMESPath expression applied to the response" },
  { flag: "dry-run", description: "Validate locally and print the request without sending it" },
  { flag: "quiet", short: "q", description: "No output on success" },
  { flag: "debug", description: "Print the HTTP request and response on standard error (secrets redacted)" },
  { flag: "schema", description: "Print machine-readable help as JSON" },
  { flag: "page-all", description: "Follow nextCursor and print every item of a paginated list" },
  { flag: "max-items", value: "n", description: "Stop after this many items (implies --page-all)" },
];

export const localGroups: LocalGroup[] = [
  {
    group: "auth",
    description: "Manage the stored API key",
    commands: [
      {
        name: "login",
        summary: "Check an API key against the API and store it in the system's secret store",
        description:
          "Prompts for the key without echo, or reads it from standard input with --with-token. The key is checked with GET /v1/account before it is stored under service `svc`, account `ApiKeyAuth`.",
        flags: [{ flag: "with-token", description: "Read the key from standard input" }],
      },
      {
        name: "status",
        summary: "Show every credential source, which one is used, and whether the platform accepts it",
        description:
          "Asks the platform (GET /v1/account) whether the key in use is accepted, never showing it. " +
          "Exit 0 when it is accepted, 2 when there is none or it is refused, 4 when the platform " +
          "cannot be reached. With --format json the same as data.",
        flags: [],
      },
      {
        name: "logout",
        summary: "Remove the stored API key from the secret store",
        description: "SVC_API_KEY, when set, is not affected.",
        flags: [],
      },
    ],
  },
  {
    group: "",
    description: "",
    commands: [
      {
        name: "completion",
        summary: "Print a shell completion script",
        description:
          "bash: `source <(svc completion bash)`; zsh: `source <(svc completion zsh)`; fish: `svc completion fish | source`; PowerShell: `svc completion powershell | Out-String | Invoke-Expression`; elvish: `eval (svc completion elvish | slurp)`.",
        argument: { name: "shell", values: [...shells], required: true },
        flags: [],
      },
      {
        name: "man",
        summary: "Print the manual page (roff)",
        description: "For example `svc man > svc.1 && man ./svc.1`.",
        flags: [],
      },
      {
        name: "generate-skills",
        summary: "Write an Agent Skill describing every command",
        description:
          "Writes SKILL.md and one reference page per resource. Needs no network and no key; two runs write identical files.",
        flags: [{ flag: "dir", value: "dir", description: "Where to write it (default: ./skills/svc)" }],
      },
    ],
  },
];
