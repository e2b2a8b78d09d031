#!/usr/bin/env node
// The package registry reachable here serves only the Linux builds of Biome, so `npm install` leaves
// the other platforms' optional packages out of package-lock.json, and `npm ci` then refuses the lock
// as incomplete. This puts their entries back (never installed on Linux: npm skips a package whose
// os/cpu do not match), so `npm ci` works here and on every other machine.
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));
const platforms = {
  "cli-android-arm64": { os: ["android"], cpu: ["arm64"] },
  "cli-android-x64": { os: ["android"], cpu: ["x64"] },
  "cli-darwin-arm64": { os: ["darwin"], cpu: ["arm64"] },
  "cli-darwin-x64": { os: ["darwin"], cpu: ["x64"] },
  "cli-linux-arm64-musl": { os: ["linux"], cpu: ["arm64"], libc: ["musl"] },
  "cli-linux-x64-musl": { os: ["linux"], cpu: ["x64"], libc: ["musl"] },
  "cli-win32-arm64": { os: ["win32"], cpu: ["arm64"] },
  "cli-win32-x64": { os: ["win32"], cpu: ["x64"] },
};
const biome = lock.packages["node_modules/@biomejs/biome"];
let added = 0;
for (const [name, target] of Object.entries(platforms)) {
  const key = `node_modules/@biomejs/${name}`;
  if (lock.packages[key]) continue;
  lock.packages[key] = {
    version: biome.version,
    ...target,
    dev: true,
    license: "MIT OR Apache-2.0",
    optional: true,
    engines: { node: ">=14.21.3" },
  };
  added++;
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
  added ? `package-lock.json: added ${added} foreign-platform entries` : "package-lock.json: complete",
);
