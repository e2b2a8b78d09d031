import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

/** Writes the first owner key where only this user can read it. */
export function writeBootstrapKey(dataDir: string, token: string): string {
  const file = join(dataDir, "bootstrap-key");
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return file;
}
