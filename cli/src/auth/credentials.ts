import { CliError, exitCodes } from "../errors";
import type { SecurityScheme } from "../spec/command-tree";
import { readSecret, SERVICE, type StoreRead } from "./store";

export interface Credential {
  scheme: string;
  token: string;
  source: "environment" | "secret store";
}

/** The credential for a scheme: the environment wins; the secret store is asked only without it. */
export async function resolveCredential(scheme: SecurityScheme, env = process.env): Promise<Credential> {
  const fromEnv = env[scheme.env]?.trim();
  if (fromEnv) return { scheme: scheme.name, token: fromEnv, source: "environment" };
  const stored = await readSecret(scheme.name);
  if (stored.state === "set") return { scheme: scheme.name, token: stored.secret, source: "secret store" };
  throw missingCredential(scheme, stored);
}

export function missingCredential(scheme: SecurityScheme, stored: StoreRead): CliError {
  const login = scheme.name === "ApiKeyAuth" ? " or run `svc auth login`" : "";
  const store =
    stored.state === "unavailable"
      ? `; the secret store is unavailable (${stored.reason}), so set ${scheme.env}`
      : "";
  return new CliError(`no credential for ${scheme.name}: ${scheme.env} is not set and none is stored`, {
    exit: exitCodes.auth,
    code: "no_credential",
    hint: `set ${scheme.env}${login}${store}`,
  });
}

export const storeEntryName = (scheme: string): string => `${SERVICE}:${scheme}`;
