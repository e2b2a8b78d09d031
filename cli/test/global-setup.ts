import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { buildCli } from "../scripts/build.mjs";
import { EMBEDDED } from "./platform";

/** The tests drive the built CLI against the built platform, exactly as a user runs them. */
export default async function setup(): Promise<void> {
  await buildCli({ quiet: true });
  if (!existsSync(EMBEDDED)) {
    const build = spawnSync(process.execPath, ["scripts/build.mjs", "--quiet"], {
      cwd: new URL("../..", import.meta.url),
      stdio: "inherit",
    });
    if (build.status !== 0) throw new Error("npm run build failed");
  }
}
