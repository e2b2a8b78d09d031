import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { directoryPerTest, permissionsOf } from "@svc/testing/files";
import { describe, expect, it } from "vitest";
import { type AddonHost, candidateDirs, ensurePrivateDir, placeAddon, userCacheDir } from "./addon-cache";

const uid = process.getuid?.() ?? 0;
const root = directoryPerTest("svc-addon-test-");

const host = (overrides: Partial<AddonHost> = {}): AddonHost => ({
  env: {},
  platform: "linux",
  home: join(root.path, "home"),
  tmp: join(root.path, "tmp"),
  uid,
  ...overrides,
});
const bytes = new TextEncoder().encode("the real addon");
const hash = createHash("sha256").update(bytes).digest("hex");
const name = `keyring-${hash.slice(0, 16)}.node`;

describe("the addon's directory", () => {
  it("is $XDG_CACHE_HOME/svc, else ~/.cache/svc on Linux, and the platform's cache dir elsewhere", () => {
    expect(userCacheDir(host({ env: { XDG_CACHE_HOME: "/x/cache" } }))).toBe("/x/cache/svc");
    expect(userCacheDir(host({ env: { XDG_CACHE_HOME: "relative" } }))).toBe(
      join(root.path, "home/.cache/svc"),
    );
    expect(userCacheDir(host())).toBe(join(root.path, "home/.cache/svc"));
    expect(userCacheDir(host({ platform: "darwin" }))).toBe(join(root.path, "home/Library/Caches/svc"));
    expect(userCacheDir(host({ platform: "win32", env: { LOCALAPPDATA: "/local" }, uid: undefined }))).toBe(
      join("/local", "svc", "cache"),
    );
    expect(candidateDirs(host())).toEqual([
      join(root.path, "home/.cache/svc"),
      join(root.path, "tmp", `svc-${uid}`),
    ]);
  });

  it("is created with mode 0700", () => {
    const dir = join(root.path, "a/b/svc");
    expect(ensurePrivateDir(dir, uid)).toBeUndefined();
    expect(permissionsOf(dir)).toBe(0o700);
  });

  it("is refused when group or others may write to it", () => {
    const dir = join(root.path, "open");
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    expect(ensurePrivateDir(dir, uid)).toMatch(/may be written by others \(mode 777\)/);
    chmodSync(dir, 0o770);
    expect(ensurePrivateDir(dir, uid)).toMatch(/mode 770/);
    chmodSync(dir, 0o755);
    expect(ensurePrivateDir(dir, uid)).toBeUndefined();
  });

  it("is refused when it belongs to another user, or is a symbolic link", () => {
    const dir = join(root.path, "theirs");
    mkdirSync(dir, { mode: 0o700 });
    expect(ensurePrivateDir(dir, uid + 1)).toMatch(/belongs to user/);
    const link = join(root.path, "link");
    symlinkSync(dir, link);
    expect(ensurePrivateDir(link, uid)).toMatch(/is not a directory/);
  });
});

describe("placing the addon", () => {
  it("writes it once into the cache directory, mode 0600, with no temporary file left", () => {
    const placed = placeAddon(bytes, "keyring", host({ env: { XDG_CACHE_HOME: join(root.path, "xdg") } }));
    expect(placed).toEqual({ file: join(root.path, "xdg/svc", name) });
    expect(readFileSync(placed.file, "utf8")).toBe("the real addon");
    expect(permissionsOf(placed.file)).toBe(0o600);
    expect(permissionsOf(join(root.path, "xdg/svc"))).toBe(0o700);
    expect(readdirSync(join(root.path, "xdg/svc"))).toEqual([name]);
  });

  it("rewrites a planted file whose content does not match before it is loaded", () => {
    const dir = join(root.path, "home/.cache/svc");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, name), "a planted library");
    const placed = placeAddon(bytes, "keyring", host());
    expect(placed.file).toBe(join(dir, name));
    expect(readFileSync(placed.file, "utf8")).toBe("the real addon");
  });

  it("replaces a symbolic link planted under the addon's name instead of following it", () => {
    const dir = join(root.path, "home/.cache/svc");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const target = join(root.path, "elsewhere.node");
    writeFileSync(target, "the real addon");
    symlinkSync(target, join(dir, name));
    const placed = placeAddon(bytes, "keyring", host());
    expect(statSync(placed.file).isFile()).toBe(true);
    expect(readdirSync(dir)).toEqual([name]);
    expect(readFileSync(placed.file, "utf8")).toBe("the real addon");
  });

  it("keeps a file whose content matches", () => {
    const first = placeAddon(bytes, "keyring", host());
    const before = statSync(first.file);
    const second = placeAddon(bytes, "keyring", host());
    expect(second.file).toBe(first.file);
    expect(statSync(second.file).ino).toBe(before.ino);
  });

  it("falls back to a per-user temp directory when the cache directory is open to others", () => {
    const cache = join(root.path, "home/.cache/svc");
    mkdirSync(cache, { recursive: true });
    chmodSync(cache, 0o777);
    const placed = placeAddon(bytes, "keyring", host());
    expect(placed.file).toBe(join(root.path, "tmp", `svc-${uid}`, name));
    expect(existsSync(join(cache, name))).toBe(false);
  });

  it("uses a fresh private directory when no candidate can be trusted", () => {
    const fake = uid + 1; // every directory we create belongs to `uid`, so none passes as this user's
    const placed = placeAddon(bytes, "keyring", host({ uid: fake }));
    expect(placed.disposable).toBeDefined();
    expect(placed.file).toBe(join(placed.disposable ?? "", name));
    expect(permissionsOf(placed.disposable ?? "")).toBe(0o700);
    expect(readFileSync(placed.file, "utf8")).toBe("the real addon");
  });
});
