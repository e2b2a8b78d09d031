import { type SpawnSyncOptions, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { devNull, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { programsAvailable } from "@svc/testing/programs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "../..");
const python = process.env.PYTHON ?? "python3";
const builder = join(here, "scripts/build_wheel.py");
const pyproject = readFileSync(join(here, "pyproject.toml"), "utf8");
const version = /^version = "(.+)"$/m.exec(pyproject)?.[1] ?? "";
const description = /^description = "(.+)"$/m.exec(pyproject)?.[1] ?? "";
const wheelName = `svc_sdk-${version}-py3-none-any.whl`;

/**
 * A machine with no package index: every PIP_* setting and pip configuration file dropped, the index
 * turned off, and the network behind a proxy that refuses, so that any download fails at once.
 */
const offline: NodeJS.ProcessEnv = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(PIP_.*|PYTHONPATH|(HTTPS?|ALL|NO)_PROXY)$/i.test(key)),
  ),
  PIP_CONFIG_FILE: devNull,
  PIP_NO_INDEX: "1",
  PIP_DISABLE_PIP_VERSION_CHECK: "1",
  http_proxy: "http://127.0.0.1:9",
  https_proxy: "http://127.0.0.1:9",
};

/** Runs the installed package offline: a client whose opener answers in place of the API. */
const PROBE = `
import io, json, os, svc

class Reply(io.BytesIO):
    status = 200
    headers = {"X-Request-Id": "req-1"}

sent = []
def opener(request, timeout):
    sent.append([request.get_method(), request.full_url, request.get_header("User-agent")])
    return Reply(b'{"id": "key-1", "name": "ci"}')

client = svc.Client(api_key="svc_test", base_url="http://svc.invalid", opener=opener)
key = client.api_keys.get("key-1")
package = os.path.dirname(svc.__file__)
print(json.dumps({"version": svc.__version__, "package": package, "typed": os.path.exists(os.path.join(package, "py.typed")),
                  "name": key.name, "sent": sent}))
`;

/** The wheel's entries, and those whose RECORD line does not match their bytes. */
const INSPECT = `
import base64, csv, hashlib, io, json, sys, zipfile

wheel = zipfile.ZipFile(sys.argv[1])
record = next(name for name in wheel.namelist() if name.endswith(".dist-info/RECORD"))
rows = list(csv.reader(io.TextIOWrapper(wheel.open(record), "utf-8")))
wrong = []
for path, digest, size in rows:
    if path == record:
        continue
    data = wheel.read(path)
    actual = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    if (digest, size) != (actual, str(len(data))):
        wrong.append(path)
recorded = sorted(row[0] for row in rows)
print(json.dumps({"names": wheel.namelist(), "unrecorded": sorted(set(wheel.namelist()) - set(recorded)), "wrong": wrong}))
`;

function run(command: string, args: string[], options: SpawnSyncOptions = {}): string {
  const result = spawnSync(command, args, { encoding: "utf8", ...options });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  expect(result.error).toBeUndefined();
  expect(result.status, `${command} ${args.join(" ")}\n${output}`).toBe(0);
  return String(result.stdout);
}

function buildWheel(project: string, out: string): string {
  run(python, [builder, "--quiet", "--out", out, project]);
  return join(out, wheelName);
}

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe.runIf(programsAvailable(python))("the Python SDK's wheel", () => {
  let work: string;
  let wheel: string;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "svc-wheel-"));
    wheel = buildWheel(here, join(work, "dist"));
  });

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("installs with pip from the wheel alone in a fresh venv, with no index and no setuptools, and uninstalls", () => {
    const venv = join(work, "venv");
    run(python, ["-m", "venv", venv], { env: offline });
    const venvPython = join(venv, "bin", "python");
    const pip = (...args: string[]) => run(venvPython, ["-m", "pip", ...args], { cwd: work, env: offline });
    pip("uninstall", "--yes", "setuptools");
    expect(pip("install", "--no-index", "--no-cache-dir", wheel)).toContain(
      `Successfully installed svc-sdk-${version}`,
    );

    const shown = pip("show", "--verbose", "svc-sdk");
    for (const line of [
      "Name: svc-sdk",
      `Version: ${version}`,
      `Summary: ${description}`,
      "Metadata-Version: 2.1",
      "  Typing :: Typed",
    ]) {
      expect(shown.split("\n")).toContain(line);
    }
    const sitePackages = /^Location: (.+)$/m.exec(shown)?.[1] ?? "";
    expect(sitePackages.startsWith(venv)).toBe(true);

    // From the temporary folder, so that the checkout's svc/ cannot be what is imported.
    const probe = JSON.parse(run(venvPython, ["-c", PROBE], { cwd: work, env: offline }));
    expect(probe).toEqual({
      version,
      package: join(sitePackages, "svc"),
      typed: true,
      name: "ci",
      sent: [
        ["GET", "http://svc.invalid/v1/api-keys/key-1", expect.stringMatching(`^svc-python/${version} `)],
      ],
    });

    pip("uninstall", "--yes", "svc-sdk");
    expect(readdirSync(sitePackages).filter((name) => name.startsWith("svc"))).toEqual([]);
  });

  it("holds the svc package with py.typed, every file in RECORD with its digest and size, and no tests or bytecode", () => {
    const { names, unrecorded, wrong } = JSON.parse(run(python, ["-c", INSPECT, wheel]));
    const modules = readdirSync(join(here, "svc"))
      .filter((name) => name.endsWith(".py") || name === "py.typed")
      .sort()
      .map((name) => `svc/${name}`);
    const distInfo = `svc_sdk-${version}.dist-info`;
    expect(names).toEqual([
      ...modules,
      `${distInfo}/METADATA`,
      `${distInfo}/WHEEL`,
      `${distInfo}/top_level.txt`,
      `${distInfo}/RECORD`,
    ]);
    expect(modules).toContain("svc/py.typed");
    expect(unrecorded).toEqual([]);
    expect(wrong).toEqual([]);
  });

  it("is byte-identical when built again from a copy with other file times and stray bytecode", () => {
    const copy = join(work, "copy");
    for (const name of ["pyproject.toml", "README.md", "svc"])
      cpSync(join(here, name), join(copy, name), { recursive: true });
    mkdirSync(join(copy, "svc/__pycache__"), { recursive: true });
    writeFileSync(join(copy, "svc/__pycache__/_client.cpython-311.pyc"), "stray");
    mkdirSync(join(copy, "tests"));
    writeFileSync(join(copy, "tests/test_stray.py"), "");
    const past = new Date("2001-02-03T04:05:06Z");
    for (const name of readdirSync(copy, { recursive: true, encoding: "utf8" }))
      utimesSync(join(copy, name), past, past);

    expect(sha256(buildWheel(copy, join(work, "dist-copy")))).toBe(sha256(wheel));
  });

  it("is written to sdks/python/dist by the root build", () => {
    run(process.execPath, ["scripts/build.mjs", "--quiet", "sdks/python"], { cwd: repoRoot });
    expect(sha256(join(here, "dist", wheelName))).toBe(sha256(wheel));
  });
});
