import { createHash, randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";

/**
 * Where the single executable keeps the secret-store addon, which it carries inside itself but must
 * write to a file to load. A native module runs with the user's rights, so the file must be one that
 * nobody else can have planted or can swap: it lives in a directory of the user's own that no one else
 * may write to, and its bytes are checked against the carried copy before every load.
 */
export interface AddonHost {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  home: string;
  tmp: string;
  /** The current user; undefined where POSIX ownership does not apply (Windows). */
  uid: number | undefined;
}

export function currentHost(): AddonHost {
  return {
    env: process.env,
    platform: process.platform,
    home: homedir(),
    tmp: tmpdir(),
    uid: typeof process.getuid === "function" ? process.getuid() : undefined,
  };
}

const absolute = (value: string | undefined): string | undefined =>
  value !== undefined && value !== "" && isAbsolute(value) ? value : undefined;

/** The per-user cache directory of svc: XDG on Linux, the platform's cache directory elsewhere. */
export function userCacheDir(host: AddonHost): string | undefined {
  switch (host.platform) {
    case "darwin":
      return host.home ? join(host.home, "Library", "Caches", "svc") : undefined;
    case "win32": {
      const local = absolute(host.env.LOCALAPPDATA);
      return local ? join(local, "svc", "cache") : undefined;
    }
    default: {
      const xdg = absolute(host.env.XDG_CACHE_HOME);
      if (xdg) return join(xdg, "svc");
      return host.home ? join(host.home, ".cache", "svc") : undefined;
    }
  }
}

/** The directories tried in order: the user's cache, then a per-user directory in the temp dir. */
export function candidateDirs(host: AddonHost): string[] {
  const cache = userCacheDir(host);
  const temp = join(host.tmp, host.uid === undefined ? "svc-addons" : `svc-${host.uid}`);
  return cache ? [cache, temp] : [temp];
}

/**
 * Creates `dir` (mode 0700) when missing and checks that it is a real directory, owned by `uid`, that
 * neither group nor others may write to. Returns why it is unfit, or undefined when it is fit.
 */
export function ensurePrivateDir(dir: string, uid: number | undefined): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stats = lstatSync(dir);
    if (!stats.isDirectory()) return `${dir} is not a directory`;
    if (uid === undefined) return undefined;
    if (stats.uid !== uid) return `${dir} belongs to user ${stats.uid}, not ${uid}`;
    if ((stats.mode & 0o022) !== 0) {
      return `${dir} may be written by others (mode ${(stats.mode & 0o777).toString(8)})`;
    }
    return undefined;
  } catch (error) {
    return `${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  }
}

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/** True when `file` is a regular file (not a link) holding exactly the bytes whose hash is `hash`. */
export function holds(file: string, hash: string): boolean {
  try {
    if (!lstatSync(file).isFile()) return false;
    return sha256(readFileSync(file)) === hash;
  } catch {
    return false;
  }
}

/** Writes `bytes` to `file` through a new file in the same directory and a rename: never half a file. */
export function writeAtomically(file: string, bytes: Uint8Array): void {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    writeFileSync(temporary, bytes, { mode: 0o600, flag: "wx" });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

export interface PlacedAddon {
  file: string;
  /** A directory made for this run only, to remove once the addon is loaded. */
  disposable?: string;
}

/**
 * The path of a file holding `bytes`, ready to load: an existing file is reused only when its content
 * matches, and is rewritten otherwise. When no candidate directory is fit, a fresh private directory
 * (mkdtemp, mode 0700) is used for this run.
 */
export function placeAddon(bytes: Uint8Array, name: string, host: AddonHost = currentHost()): PlacedAddon {
  const hash = sha256(bytes);
  const fileName = `${name}-${hash.slice(0, 16)}.node`;
  for (const dir of candidateDirs(host)) {
    if (ensurePrivateDir(dir, host.uid) !== undefined) continue;
    const file = join(dir, fileName);
    try {
      if (!holds(file, hash)) writeAtomically(file, bytes);
      if (holds(file, hash)) return { file };
    } catch {
      // A read-only or full file system: try the next place.
    }
  }
  const disposable = mkdtempSync(join(host.tmp, "svc-addon-"));
  const file = join(disposable, fileName);
  writeAtomically(file, bytes);
  return { file, disposable };
}
