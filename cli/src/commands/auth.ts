import { missingCredential, storeEntryName } from "../auth/credentials";
import { deleteSecret, readSecret, storeUnavailable, writeSecret } from "../auth/store";
import { type Context, note, write } from "../context";
import { CliError, exitCodes, usageError } from "../errors";
import { send } from "../http/send";
import { createTransport } from "../http/transport";
import { render } from "../output/render";
import type { SecurityScheme } from "../spec/tree";
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

  const account = await checkKey(ctx, token);
  await writeSecret(scheme.name, token);
  const organization = account.organization?.name ?? "the organisation";
  if (ctx.globals.format === "json" || ctx.globals.format === "jsonl" || ctx.globals.format === "yaml") {
    const value = {
      stored: storeEntryName(scheme.name),
      organization: account.organization,
      role: account.role,
    };
    write(ctx, await render(value, { format: ctx.globals.format, tty: false, color: false, columns: 80 }));
  } else {
    note(
      ctx,
      `Logged in to ${organization} as ${account.role ?? "unknown role"}; the key is stored as ${storeEntryName(scheme.name)}.`,
    );
  }
}

interface Account {
  organization?: { id: string; name: string; slug: string };
  role?: string;
}

/** GET /v1/account with the key: the only way to know it is good. */
async function checkKey(ctx: Context, token: string): Promise<Account> {
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
    if (response.status === 401 || response.status === 403) {
      throw new CliError("the API rejected this key; nothing was stored", {
        exit: exitCodes.auth,
        code: "unauthenticated",
        status: response.status,
        hint: "check that you copied the whole key (it starts with svc_)",
      });
    }
    if (response.status !== 200) {
      throw new CliError(`could not check the key: the API answered HTTP ${response.status}`, {
        exit: exitCodes.api,
        code: "http_error",
        status: response.status,
      });
    }
    return JSON.parse(response.body.toString("utf8")) as Account;
  } finally {
    await transport.dispatcher.destroy().catch(() => undefined);
  }
}

/** `svc auth status`: every source of every scheme, and which one is used. Never the secret. */
export async function status(ctx: Context): Promise<number> {
  const schemes = await Promise.all(
    ctx.tree.schemes.map(async (scheme) => {
      const env = ctx.io.env[scheme.env]?.trim() ? "set" : "unset";
      const stored = await readSecret(scheme.name);
      const store: Record<string, string> = { entry: storeEntryName(scheme.name), state: stored.state };
      if (stored.state === "unavailable") store.reason = stored.reason;
      const used = env === "set" ? "environment" : stored.state === "set" ? "secret store" : null;
      return {
        scheme: scheme.name,
        environment: { variable: scheme.env, state: env },
        secretStore: store,
        used,
      };
    }),
  );
  const main = schemes.find((entry) => entry.scheme === DEFAULT_SCHEME) ?? schemes[0];
  const usable = main?.used !== null && main !== undefined;
  const { format } = ctx.globals;
  if (format === "json" || format === "jsonl" || format === "yaml") {
    write(ctx, await render({ usable, schemes }, { format, tty: false, color: false, columns: 80 }));
  } else {
    const lines: string[] = [];
    for (const entry of schemes) {
      lines.push(entry.scheme);
      lines.push(`  environment (${entry.environment.variable}): ${entry.environment.state}`);
      const reason = entry.secretStore.reason ? ` (${entry.secretStore.reason})` : "";
      lines.push(`  secret store (${entry.secretStore.entry}): ${entry.secretStore.state}${reason}`);
      lines.push(`  using: ${entry.used ?? "nothing"}`);
    }
    write(ctx, `${lines.join("\n")}\n`);
  }
  if (usable) return exitCodes.ok;
  const stored = main?.secretStore.state === "unavailable" ? (main.secretStore.reason ?? "") : undefined;
  throw missingCredential(
    defaultScheme(ctx),
    stored === undefined ? { state: "unset" } : { state: "unavailable", reason: stored },
  );
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
