import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { directoryPerTest, permissionsOf } from "@svc/testing/files";
import { describe, expect, it } from "vitest";
import { bootstrapKeyFile, writeBootstrapKey } from "./data-dir";

const TOKEN = "svc_0123456789abcdefghijklmnop";

describe("writeBootstrapKey", () => {
  const dataDir = directoryPerTest("svc-data-");

  it("writes the key readable by this user alone", () => {
    const file = writeBootstrapKey(dataDir.path, TOKEN);

    expect(file).toBe(join(dataDir.path, "bootstrap-key"));
    expect(readFileSync(file, "utf8")).toBe(`${TOKEN}\n`);
    expect(permissionsOf(file)).toBe(0o600);
    expect(readdirSync(dataDir.path)).toEqual(["bootstrap-key"]);
  });

  it("replaces a key file that others could read with one that they cannot", () => {
    const file = bootstrapKeyFile(dataDir.path);
    writeFileSync(file, "svc_an-old-key-from-a-deleted-database\n");
    chmodSync(file, 0o644);

    writeBootstrapKey(dataDir.path, TOKEN);

    expect(readFileSync(file, "utf8")).toBe(`${TOKEN}\n`);
    expect(permissionsOf(file)).toBe(0o600);
    expect(readdirSync(dataDir.path)).toEqual(["bootstrap-key"]);
  });

  it("does not inherit the mode of a temporary file left by a crash", () => {
    const leftover = `${bootstrapKeyFile(dataDir.path)}.${process.pid}.tmp`;
    writeFileSync(leftover, "half a k");
    chmodSync(leftover, 0o644);

    writeBootstrapKey(dataDir.path, TOKEN);

    expect(permissionsOf(bootstrapKeyFile(dataDir.path))).toBe(0o600);
    expect(readdirSync(dataDir.path)).toEqual(["bootstrap-key"]);
  });

  it("fails without leaving a temporary file when the key cannot be put in place", () => {
    mkdirSync(bootstrapKeyFile(dataDir.path));

    expect(() => writeBootstrapKey(dataDir.path, TOKEN)).toThrow();
    expect(readdirSync(dataDir.path)).toEqual(["bootstrap-key"]);
  });
});
