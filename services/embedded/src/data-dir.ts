import {
  closeSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

/**
 * Takes the data folder for this process alone: the embedded database must never be opened by two
 * processes at once. A lock left by a process that no longer runs is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lockFile = join(dataDir, "lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, "wx", 0o600);
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(readFileSync(lockFile, "utf8"));
      if (Number.isInteger(pid) && pid > 0 && isRunning(pid)) {
        throw new Error(
          `${dataDir} is in use by another svc process (pid ${pid}); stop it first or set SVC_DATA_DIR`,
        );
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export const bootstrapKeyFile = (dataDir: string): string => join(dataDir, "bootstrap-key");

/**
 * Writes the first owner key where only this user can read it. The key goes to a new file that
 * replaces the old one in one rename: a reader never sees half a key, a crash never leaves one, and
 * the mode is this file's own (an existing file's mode would survive an overwrite in place).
 */
export function writeBootstrapKey(dataDir: string, token: string): string {
  const file = bootstrapKeyFile(dataDir);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(temporary, "w", 0o600);
    try {
      // The umask can only take permissions away, but a leftover file keeps its old ones.
      fchmodSync(fd, 0o600);
      writeFileSync(fd, `${token}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return file;
}

/** The saved owner key, when there is one (the person may have deleted the file, as it suggests). */
export function readBootstrapKey(dataDir: string): string | undefined {
  try {
    const token = readFileSync(bootstrapKeyFile(dataDir), "utf8").trim();
    return token === "" ? undefined : token;
  } catch {
    return undefined;
  }
}
