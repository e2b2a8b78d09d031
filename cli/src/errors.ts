/** The exit codes of CLI.md, by meaning. */
export const exitCodes = {
  ok: 0,
  api: 1,
  auth: 2,
  usage: 3,
  network: 4,
  bug: 5,
  /** `--fail-on-regression` found one. */
  regression: 6,
} as const;
export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

export interface CliErrorInit {
  exit: ExitCode;
  code: string;
  hint?: string;
  status?: number;
  requestId?: string;
  details?: unknown;
}

/** A failure the CLI reports as one line (or one JSON object) on standard error. */
export class CliError extends Error {
  readonly exit: ExitCode;
  readonly code: string;
  readonly hint: string | undefined;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly details: unknown;

  constructor(message: string, init: CliErrorInit) {
    super(message);
    this.name = "CliError";
    this.exit = init.exit;
    this.code = init.code;
    this.hint = init.hint;
    this.status = init.status;
    this.requestId = init.requestId;
    this.details = init.details;
  }
}

export const usageError = (message: string, hint?: string, code = "usage_error"): CliError =>
  new CliError(message, hint === undefined ? { exit: exitCodes.usage, code } : { exit: 3, code, hint });

/** The object printed on standard error in machine-readable mode. */
export function errorObject(error: CliError): Record<string, unknown> {
  const object: Record<string, unknown> = {
    error: error.message,
    code: error.code,
    status: error.status ?? null,
    requestId: error.requestId ?? null,
    hint: error.hint ?? null,
  };
  // The API's details (for example each validation issue with its path) help a program fix its call.
  if (error.details !== undefined) object.details = error.details;
  return object;
}

/** One line a person can act on. */
export function errorLine(error: CliError): string {
  const facts = [
    error.status !== undefined ? `HTTP ${error.status}` : undefined,
    error.code,
    error.requestId ? `request ${error.requestId}` : undefined,
  ].filter(Boolean);
  const hint = error.hint ? `; ${error.hint}` : "";
  return `svc: ${error.message.replace(/\s*\n\s*/g, " ")} (${facts.join(", ")})${hint}`;
}

/** Anything that is not a CliError is a bug in the CLI: exit 5, one line, never a stack trace. */
export function asCliError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new CliError(`internal error: ${message.split("\n")[0]}`, {
    exit: exitCodes.bug,
    code: "internal_cli_error",
    hint: "this is a bug in svc; run again with --debug and report it",
  });
}
