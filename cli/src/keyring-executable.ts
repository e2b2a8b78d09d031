import { readFileSync, rmSync } from "node:fs";
import { placeAddon } from "./addon-cache";

// The secret-store addon inside the single executable: the release embeds the target's `.node` file
// in the executable (scripts/compile.mjs), and a native module can only be loaded from a file of the
// system, so it is copied into a private per-user directory and loaded from there, after its bytes
// have been checked against the embedded copy (see addon-cache.ts).

/** The exports of `@napi-rs/keyring`, loaded from the addon embedded in the executable at `embedded`. */
export function loadKeyring(embedded: string): unknown {
  const placed = placeAddon(new Uint8Array(readFileSync(embedded)), "keyring");
  const addon = { exports: {} };
  try {
    process.dlopen(addon, placed.file);
  } finally {
    // Once loaded, a file made for this run only is not needed (Windows keeps it locked: left behind).
    if (placed.disposable) {
      try {
        rmSync(placed.disposable, { recursive: true, force: true });
      } catch {
        // left for the system's temp cleaning
      }
    }
  }
  return addon.exports;
}
