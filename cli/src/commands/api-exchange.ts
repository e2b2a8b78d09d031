import type { Context } from "../context";
import { CliError, exitCodes } from "../errors";
import type { PreparedRequest } from "../http/request";
import { type HttpResponse, header, send } from "../http/send";
import type { Transport } from "../http/transport";
import type { ApiCommand } from "../spec/command-tree";

/* One request to the API, and its error response as the CLI reports it. */

export async function exchange(
  ctx: Context,
  command: ApiCommand,
  request: PreparedRequest,
  transport: Transport,
  sink?: NodeJS.WritableStream,
): Promise<HttpResponse> {
  const debug = ctx.globals.debug ? (text: string) => ctx.io.stderr.write(`${text}\n`) : undefined;
  const response = await send(request, {
    transport,
    timeoutMs: ctx.settings.timeoutMs,
    debug,
    ...(sink ? { sink } : {}),
  });
  if (response.status >= 200 && response.status < 300) return response;
  throw apiError(command, response, transport);
}

const hints: Record<string, (command: ApiCommand) => string> = {
  unauthenticated: () => "check SVC_API_KEY or run `svc auth login`",
  forbidden: () => "this key's role may not do this; use a key with a higher role",
  not_found: (command) =>
    command.inputs.some((input) => input.name === "datasetSlug")
      ? "check the slugs with `svc projects list` and `svc datasets list`"
      : "check the names with `svc projects list`",
  validation_failed: (command) => `see \`svc ${command.resource} ${command.name} --help\``,
  unknown_column: () => "list the active columns with `svc datasets list-columns`",
  version_mismatch: () =>
    "read the row again with `svc datasets get-row` and retry with its version in --if-match",
  conflict: () => "choose another name",
  idempotency_key_reused: () => "send the request again without reusing the key",
  rate_limited: () => "too many requests: wait and retry",
  service_unavailable: () => "the platform is not answering right now; retry shortly",
  upstream_timeout: () => "the platform took too long; retry shortly",
  outcome_unknown: () => "the change may have been applied: read it back before sending it again",
};

/** An error response: the platform's error shape, or something else (a proxy's page, say). */
function apiError(command: ApiCommand, response: HttpResponse, transport: Transport): CliError {
  let body: { error?: unknown; code?: unknown; requestId?: unknown; details?: unknown } | undefined;
  try {
    body = JSON.parse(response.body.toString("utf8"));
  } catch {
    body = undefined;
  }
  const requestId = header(response, "x-request-id");
  const auth = response.status === 401 || response.status === 403;
  if (!body || typeof body.code !== "string") {
    const fromProxy = transport.proxy !== undefined && requestId === undefined;
    const snippet = response.body
      .toString("utf8")
      .replace(/<[^>]*>/g, " ")
      .replace(/\s+/g, " ")
      .trim();
    return new CliError(
      `${fromProxy ? `the proxy ${transport.proxy} answered` : "the server answered"} HTTP ${response.status} ${response.statusText}${snippet ? `: ${snippet.slice(0, 160)}` : ""}`,
      {
        exit: fromProxy ? exitCodes.network : auth ? exitCodes.auth : exitCodes.api,
        code: fromProxy ? "proxy_error" : "http_error",
        status: response.status,
        hint: fromProxy
          ? "check SVC_PROXY / HTTPS_PROXY / HTTP_PROXY, or add the host to NO_PROXY"
          : "is SVC_BASE_URL the platform's address?",
      },
    );
  }
  const code = body.code;
  const init: ConstructorParameters<typeof CliError>[1] = {
    exit: auth ? exitCodes.auth : exitCodes.api,
    code,
    status: response.status,
  };
  const hint = hints[code]?.(command);
  if (hint) init.hint = hint;
  const id = typeof body.requestId === "string" ? body.requestId : requestId;
  if (id) init.requestId = id;
  if (body.details !== undefined) init.details = body.details;
  return new CliError(typeof body.error === "string" ? body.error : `HTTP ${response.status}`, init);
}
