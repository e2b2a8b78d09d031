import { rmSync } from "node:fs";
import { placeAddon } from "./addon-cache";

// The secret-store addon inside the single executable: it is carried as a SEA asset and loaded from
// a file (a native module can only be loaded from a file) in a private per-user directory, after its
// bytes have been checked against the carried copy (see addon-cache.ts).

let addon: unknown;

/** The exports of `@napi-rs/keyring` inside the single executable, loaded on first use. */
export function keyringAddon(): unknown {
  addon ??= loadAddon();
  return addon;
}

function loadAddon(): unknown {
  const sea = require("node:sea") as { getAsset(key: string): ArrayBuffer };
  const placed = placeAddon(new Uint8Array(sea.getAsset("keyring.node")), "keyring");
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
