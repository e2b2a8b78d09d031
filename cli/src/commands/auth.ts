import { missingCredential, storeEntryName } from "../auth/credentials";
import { deleteSecret, readSecret, storeUnavailable, writeSecret } from "../auth/store";
import { type Context, note, write } from "../context";
import { CliError, exitCodes, usageError } from "../errors";
import { header, send } from "../http/send";
import { createTransport } from "../http/transport";
import { render } from "../output/render";
import type { SecurityScheme } from "../spec/command-tree";
import { USER_AGENT } from "../version";

const DEFAULT_SCHEME = "ApiKeyAuth";

function defaultScheme(ctx: Context): SecurityScheme {
  return (
    ctx.tree.schemes.find((scheme) => scheme.name === DEFAULT_SCHEME) ?? {
      name: DEFAULT_SCHEME,
      description: "",
      env: "SVC_API_KEY",
    }
  );
}

/** `svc auth login`: asks for the key (or reads it from stdin), checks it, stores it. */
export async function login(ctx: Context, withToken: boolean, prompt: () => Promise<string>): Promise<void> {
  const scheme = defaultScheme(ctx);
  const before = await readSecret(scheme.name);
  if (before.state === "unavailable") throw storeUnavailable(before.reason);
  let token: string;
  if (withToken) token = ctx.io.readStdin().trim();
  else if (ctx.io.stdinIsTTY) token = (await prompt()).trim();
  else {
    throw usageError(
      "standard input is not a terminal, so there is nowhere to prompt for the key",
      "pipe the key in with `svc auth login --with-token`",
    );
  }
  if (!token) throw usageError("no API key was given", "paste the key, or pipe it to --with-token");

  const check = await checkKey(ctx, token);
  if (check.state === "unreachable") throw check.error;
  if (check.state === "refused") {
    throw new CliError("the API rejected this key; nothing was stored", {
      exit: exitCodes.auth,
      code: "unauthenticated",
      status: check.status,
      hint: "check that you copied the whole key (it starts with svc_)",
      ...(check.requestId ? { requestId: check.requestId } : {}),
    });
  }
  if (check.state === "failed") throw checkFailed(check, "could not check the key");
  await writeSecret(scheme.name, token);
  const organization = check.organization?.name ?? "the organisation";
  if (isData(ctx.globals.format)) {
    const value = {
      stored: storeEntryName(scheme.name),
      organization: check.organization,
      role: check.role,
    };
    write(ctx, await render(value, { format: ctx.globals.format, tty: false, color: false, columns: 80 }));
  } else {
    note(
      ctx,
      `Logged in to ${organization} as ${check.role ?? "unknown role"}; the key is stored as ${storeEntryName(scheme.name)}.`,
    );
  }
}

const isData = (format: string): format is "json" | "jsonl" | "yaml" =>
  format === "json" || format === "jsonl" || format === "yaml";

/** What the API said of a key, asked with GET /v1/account: the only way to know it is good. */
type KeyCheck =
  | {
      state: "accepted";
      url: string;
      status: number;
      organization?: { id: string; name: string; slug: string };
      role?: string;
      /** The person behind the key (who made it) or the session; null for a key made by no person. */
      user?: { id: string; email: string | null; name: string } | null;
    }
  /** 401 or 403: the key is not valid, or was revoked. */
  | { state: "refused"; url: string; status: number; requestId?: string }
  /** Any other answer, after the retries that every request gets. */
  | { state: "failed"; url: string; status: number; requestId?: string }
  /** No answer at all: connection, proxy, TLS or timeout (the error says which). */
  | { state: "unreachable"; url: string; error: CliError };

async function checkKey(ctx: Context, token: string): Promise<KeyCheck> {
  const url = `${ctx.settings.baseUrl}/v1/account`;
  const transport = await createTransport(ctx.settings, new URL(url), ctx.io.env, (text) =>
    ctx.io.stderr.write(text),
  );
  try {
    const response = await send(
      {
        method: "GET",
        url,
        headers: { accept: "application/json", "user-agent": USER_AGENT, authorization: `Bearer ${token}` },
      },
      {
        transport,
        timeoutMs: ctx.settings.timeoutMs,
        debug: ctx.globals.debug ? (text) => ctx.io.stderr.write(`${text}\n`) : undefined,
      },
    );
    const requestId = header(response, "x-request-id");
    const answer = { url, status: response.status, ...(requestId ? { requestId } : {}) };
    if (response.status === 401 || response.status === 403) return { state: "refused", ...answer };
    if (response.status !== 200) return { state: "failed", ...answer };
    const account = JSON.parse(response.body.toString("utf8")) as Pick<
      Extract<KeyCheck, { state: "accepted" }>,
      "organization" | "role" | "user"
    >;
    return { state: "accepted", url, status: response.status, ...account };
  } catch (error) {
    if (error instanceof CliError && error.exit === exitCodes.network) {
      return { state: "unreachable", url, error };
    }
    throw error;
  } finally {
    await transport.close();
  }
}

const checkFailed = (check: { status: number; requestId?: string }, what: string): CliError =>
  new CliError(`${what}: the API answered HTTP ${check.status}`, {
    exit: exitCodes.api,
    code: "http_error",
    status: check.status,
    ...(check.requestId ? { requestId: check.requestId } : {}),
  });

/** The credential's standing with the API, as `auth status` reports it: never the secret. */
function checkReport(check: KeyCheck): Record<string, unknown> {
  switch (check.state) {
    case "accepted":
      return {
        state: check.state,
        url: check.url,
        status: check.status,
        organization: check.organization ?? null,
        role: check.role ?? null,
        user: check.user ?? null,
      };
    case "refused":
    case "failed":
      return { state: check.state, url: check.url, status: check.status, requestId: check.requestId ?? null };
    case "unreachable":
      return { state: check.state, url: check.url, code: check.error.code, reason: check.error.message };
  }
}

function checkLine(check: KeyCheck): string {
  const origin = new URL(check.url).origin;
  switch (check.state) {
    case "accepted": {
      const organization = check.organization ? `organisation ${check.organization.name}, ` : "";
      const accepted = `  API (${origin}): accepted (${organization}role ${check.role ?? "unknown"})`;
      return check.user ? `${accepted}\n  user: ${personOf(check.user)}` : accepted;
    }
    case "refused":
      return `  API (${origin}): refused (HTTP ${check.status}): the key is not valid or was revoked`;
    case "failed":
      return `  API (${origin}): could not tell (HTTP ${check.status})`;
    case "unreachable":
      return `  API (${origin}): unreachable: ${check.error.message}`;
  }
}

/** A person as a line names them: their name, and their address when it is set and not the name. */
function personOf(user: { email: string | null; name: string }): string {
  if (user.email === null) return `${user.name} (no e-mail address set)`;
  return user.name === user.email ? user.email : `${user.name} <${user.email}>`;
}

/**
 * `svc auth status`: every source of every scheme, which one is used, and, for the API key, whether
 * the platform accepts it (asked with GET /v1/account). Never the secret. Exit 0 when the key is
 * accepted, 2 when there is none or it is refused, 4 when the platform cannot be reached, 1 when it
 * answers with another error.
 */
export async function status(ctx: Context): Promise<number> {
  const main = defaultScheme(ctx);
  // Only the API key is checked: the operator token has no operation that reads without changing.
  const schemes = await Promise.all(
    ctx.tree.schemes.map((scheme) => schemeStatus(ctx, scheme, scheme.name === main.name)),
  );
  const mainStatus = schemes.find((entry) => entry.scheme === main.name);
  const check = mainStatus?.check;
  const { format } = ctx.globals;
  if (isData(format)) {
    const data = schemes.map((entry) => ({ ...entry, check: entry.check ? checkReport(entry.check) : null }));
    const usable = check?.state === "accepted";
    write(ctx, await render({ usable, schemes: data }, { format, tty: false, color: false, columns: 80 }));
  } else {
    const lines: string[] = [];
    for (const entry of schemes) {
      lines.push(entry.scheme);
      lines.push(`  environment (${entry.environment.variable}): ${entry.environment.state}`);
      const reason = entry.secretStore.reason ? ` (${entry.secretStore.reason})` : "";
      lines.push(`  secret store (${entry.secretStore.entry}): ${entry.secretStore.state}${reason}`);
      lines.push(`  using: ${entry.used ?? "nothing"}`);
      if (entry.check) lines.push(checkLine(entry.check));
    }
    write(ctx, `${lines.join("\n")}\n`);
  }
  if (check?.state === "accepted") return exitCodes.ok;
  if (check) throw checkError(check, main, mainStatus?.used ?? null);
  const store = mainStatus?.secretStore;
  throw missingCredential(
    main,
    store?.state === "unavailable"
      ? { state: "unavailable", reason: store.reason ?? "" }
      : { state: "unset" },
  );
}

/** One scheme's sources, the one used, and (when `check`) what the API says of its credential. */
async function schemeStatus(ctx: Context, scheme: SecurityScheme, check: boolean) {
  const fromEnv = ctx.io.env[scheme.env]?.trim();
  const stored = await readSecret(scheme.name);
  const secretStore: { entry: string; state: string; reason?: string } = {
    entry: storeEntryName(scheme.name),
    state: stored.state,
  };
  if (stored.state === "unavailable") secretStore.reason = stored.reason;
  const token = fromEnv || (stored.state === "set" ? stored.secret : undefined);
  return {
    scheme: scheme.name,
    environment: { variable: scheme.env, state: fromEnv ? "set" : "unset" },
    secretStore,
    used: fromEnv ? "environment" : token ? "secret store" : null,
    check: check && token ? await checkKey(ctx, token) : undefined,
  };
}

/** Why a credential that exists is not usable, with the exit code of CLI.md. */
function checkError(
  check: Exclude<KeyCheck, { state: "accepted" }>,
  scheme: SecurityScheme,
  source: string | null,
): CliError {
  const from = source === "environment" ? scheme.env : storeEntryName(scheme.name);
  switch (check.state) {
    case "unreachable":
      return check.error;
    case "failed":
      return checkFailed(check, `could not check the key from ${from}`);
    case "refused":
      return new CliError(`the API refused the key from ${from}: it is not valid or was revoked`, {
        exit: exitCodes.auth,
        code: "unauthenticated",
        status: check.status,
        hint:
          source === "environment"
            ? `set ${scheme.env} to a valid key, or unset it to use the stored one`
            : "run `svc auth login` with a valid key",
        ...(check.requestId ? { requestId: check.requestId } : {}),
      });
  }
}

/** `svc auth logout`: removes the stored key. */
export async function logout(ctx: Context): Promise<void> {
  const scheme = defaultScheme(ctx);
  const removed = await deleteSecret(scheme.name);
  note(
    ctx,
    removed
      ? `Removed the key stored as ${storeEntryName(scheme.name)}.`
      : `No key was stored as ${storeEntryName(scheme.name)}.`,
  );
  if (ctx.io.env[scheme.env]?.trim()) note(ctx, `${scheme.env} is still set in the environment.`);
}
