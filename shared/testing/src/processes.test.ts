import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { root, spawnNode, waitReady } from "./processes";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A script in a folder of its own, run as the embedded process is (with its start script's flags). */
function script(source: string) {
  const dir = mkdtempSync(join(tmpdir(), "svc-processes-"));
  dirs.push(dir);
  const file = join(dir, "main.mjs");
  writeFileSync(file, source);
  return spawnNode("embedded", file, {});
}

describe("the harness's processes", () => {
  it("finds the repository's root by its package.json, wherever the harness is bundled", () => {
    expect((JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name: string }).name).toBe(
      "svc",
    );
    expect(root).not.toMatch(/shared[/\\]testing/);
  });

  it("stops waiting for /readyz as soon as the process exits, saying how it ended", async () => {
    const proc = script("process.exit(3);");
    const started = Date.now();
    await expect(waitReady("http://127.0.0.1:9", 20_000, proc)).rejects.toThrow(
      "embedded exited (3) while waiting for http://127.0.0.1:9/readyz",
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("returns once /readyz answers 200, and keeps what the process wrote", async () => {
    const server = createServer((_req, res) => res.writeHead(200).end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const proc = script('console.log("up"); setTimeout(() => {}, 60_000);');
    try {
      await waitReady(`http://127.0.0.1:${port}`, 5_000, proc);
      await expect.poll(() => proc.transcript.join("")).toBe("up\n");
    } finally {
      proc.child.kill("SIGKILL");
      await proc.exited;
      server.close();
    }
  });
});
