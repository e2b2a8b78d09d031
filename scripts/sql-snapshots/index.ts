import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { renderSnapshots } from "./render";
import { snapshotFiles } from "./statements";

export const STALE_MESSAGE = "SQL snapshots are stale: run `npm run sql` and commit the result";

/** Each snapshot as the repository functions now compile it: path (from the repository root) to text. */
export const currentSnapshots = () => renderSnapshots(snapshotFiles);

/**
 * What differs between `snapshots` and the files under `root`: a snapshot missing or different on
 * disk, and a `.sql` file in a snapshot folder that no longer has a repository function behind it.
 */
export function staleSnapshots(root: string, snapshots: ReadonlyMap<string, string>): string[] {
  const stale: string[] = [];
  for (const [path, text] of snapshots) {
    const file = join(root, path);
    if (!existsSync(file)) stale.push(`${path} is missing`);
    else {
      const line = firstDifferentLine(readFileSync(file, "utf8"), text);
      if (line !== undefined) stale.push(`${path} differs from line ${line}`);
    }
  }
  for (const path of strays(root, snapshots)) stale.push(`${path} has no repository behind it`);
  return stale;
}

/** Writes every snapshot and removes the strays; returns the paths it changed. */
export function writeSnapshots(root: string, snapshots: ReadonlyMap<string, string>): string[] {
  const changed: string[] = [];
  for (const [path, text] of snapshots) {
    const file = join(root, path);
    if (existsSync(file) && readFileSync(file, "utf8") === text) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    changed.push(path);
  }
  for (const path of strays(root, snapshots)) {
    rmSync(join(root, path));
    changed.push(path);
  }
  return changed;
}

function firstDifferentLine(committed: string, current: string): number | undefined {
  if (committed === current) return undefined;
  const a = committed.split("\n");
  const b = current.split("\n");
  const index = a.findIndex((line, i) => line !== b[i]);
  return (index === -1 ? a.length : index) + 1;
}

function strays(root: string, snapshots: ReadonlyMap<string, string>): string[] {
  const folders = new Set([...snapshots.keys()].map((path) => dirname(path)));
  return [...folders].flatMap((folder) =>
    existsSync(join(root, folder))
      ? readdirSync(join(root, folder))
          .filter((name) => name.endsWith(".sql"))
          .map((name) => join(folder, name))
          .filter((path) => !snapshots.has(path))
      : [],
  );
}
