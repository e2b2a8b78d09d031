import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The secret-store addon inside the single executable: it is carried as a SEA asset and loaded from a
 * file named after its hash (a native module can only be loaded from a file).
 */
function loadAddon(): unknown {
  const sea = require("node:sea") as { getAsset(key: string): ArrayBuffer };
  const bytes = Buffer.from(sea.getAsset("keyring.node"));
  const dir = join(tmpdir(), "svc-addons");
  const file = join(dir, `keyring-${createHash("sha256").update(bytes).digest("hex").slice(0, 16)}.node`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(`${file}.${process.pid}`, bytes, { mode: 0o600 });
    renameSync(`${file}.${process.pid}`, file);
  }
  const addon = { exports: {} };
  process.dlopen(addon, file);
  return addon.exports;
}

module.exports = loadAddon();
