import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bootstrapKeyFile, writeBootstrapKey } from "./data-dir";

const TOKEN = "svc_0123456789abcdefghijklmnop";
const modeOf = (file: string) => statSync(file).mode & 0o777;

describe("writeBootstrapKey", () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), "svc-data-"));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("writes the key readable by this user alone", () => {
    const file = writeBootstrapKey(dataDir, TOKEN);

    expect(file).toBe(join(dataDir, "bootstrap-key"));
    expect(readFileSync(file, "utf8")).toBe(`${TOKEN}\n`);
    expect(modeOf(file)).toBe(0o600);
    expect(readdirSync(dataDir)).toEqual(["bootstrap-key"]);
  });

  it("replaces a key file that others could read with one that they cannot", () => {
    const file = bootstrapKeyFile(dataDir);
    writeFileSync(file, "svc_an-old-key-from-a-deleted-database\n");
    chmodSync(file, 0o644);

    writeBootstrapKey(dataDir, TOKEN);

    expect(readFileSync(file, "utf8")).toBe(`${TOKEN}\n`);
    expect(modeOf(file)).toBe(0o600);
    expect(readdirSync(dataDir)).toEqual(["bootstrap-key"]);
  });

  it("does not inherit the mode of a temporary file left by a crash", () => {
    const leftover = `${bootstrapKeyFile(dataDir)}.${process.pid}.tmp`;
    writeFileSync(leftover, "half a k");
    chmodSync(leftover, 0o644);

    writeBootstrapKey(dataDir, TOKEN);

    expect(modeOf(bootstrapKeyFile(dataDir))).toBe(0o600);
    expect(readdirSync(dataDir)).toEqual(["bootstrap-key"]);
  });

  it("fails without leaving a temporary file when the key cannot be put in place", () => {
    mkdirSync(bootstrapKeyFile(dataDir));

    expect(() => writeBootstrapKey(dataDir, TOKEN)).toThrow();
    expect(readdirSync(dataDir)).toEqual(["bootstrap-key"]);
  });
});
