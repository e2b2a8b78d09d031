import { CliError, exitCodes } from "../errors";

/** The operating system's secret store: entries under service `svc`, one account per security scheme. */
export const SERVICE = "svc";
const TIMEOUT_MS = 5000;

export type StoreRead =
  | { state: "set"; secret: string }
  | { state: "unset" }
  | { state: "unavailable"; reason: string };

interface KeyringEntry {
  getPassword(signal?: AbortSignal): Promise<string | null>;
  setPassword(password: string, signal?: AbortSignal): Promise<void>;
  deletePassword(signal?: AbortSignal): Promise<boolean>;
}

/**
 * An entry of the secret store. On Linux it is pinned to the Secret Service, so that a machine without
 * one fails with a reason instead of falling back to a store that does not persist.
 */
async function entry(account: string): Promise<KeyringEntry> {
  const { AsyncEntry } = await import("@napi-rs/keyring");
  return process.platform === "linux"
    ? new AsyncEntry(SERVICE, account, { linux: { store: "secret-service" } })
    : new AsyncEntry(SERVICE, account);
}

/** Runs one store call with a deadline: a store that hangs must not hang the CLI. */
async function withDeadline<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`the secret store did not answer within ${TIMEOUT_MS / 1000} s`));
    }, TIMEOUT_MS);
  });
  try {
    return await Promise.race([call(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, " ").trim() || "unknown error";
}

export async function readSecret(account: string): Promise<StoreRead> {
  let secret: string | null;
  try {
    secret = await withDeadline(async (signal) => (await entry(account)).getPassword(signal));
  } catch (error) {
    return { state: "unavailable", reason: reasonOf(error) };
  }
  if (!secret) return { state: "unset" };
  await nameAccount(account);
  return { state: "set", secret };
}

export async function writeSecret(account: string, secret: string): Promise<void> {
  try {
    await withDeadline(async (signal) => (await entry(account)).setPassword(secret, signal));
  } catch (error) {
    throw storeUnavailable(reasonOf(error));
  }
  await nameAccount(account);
}

/**
 * On Linux, makes the entry findable by `account` as well as by the addon's `username` (see
 * secret-service.ts), for an entry just written and for one an earlier svc wrote. Best effort: the
 * key is stored and readable either way, so a failure here fails nothing.
 */
async function nameAccount(account: string): Promise<void> {
  if (process.platform !== "linux") return;
  try {
    const { addAccountAttribute } = await import("./secret-service");
    await withDeadline((signal) => addAccountAttribute(SERVICE, account, process.env, signal));
  } catch {
    // the entry stays findable as service/username
  }
}

export async function deleteSecret(account: string): Promise<boolean> {
  try {
    return await withDeadline(async (signal) => (await entry(account)).deletePassword(signal));
  } catch (error) {
    throw storeUnavailable(reasonOf(error));
  }
}

export const storeUnavailable = (reason: string): CliError =>
  new CliError(`no secret store is available on this machine (${reason})`, {
    exit: exitCodes.auth,
    code: "secret_store_unavailable",
    hint: "set SVC_API_KEY to your API key instead (for example in your shell profile or CI secrets)",
  });
