#!/usr/bin/env node
// Writes the OpenAPI document built from the operation table to every committed copy of it.
// Usage: generate-openapi.mjs [--check]   (--check writes nothing and exits 1 when a copy has drifted)
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { withTypeScriptModule } from "./import-typescript.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const check = process.argv.includes("--check");
/** Every committed copy: the contracts' own, and the one the CLI builds its commands from. */
const targets = ["shared/contracts/openapi.json", "cli/openapi.json"].filter((path) =>
  existsSync(join(root, dirname(path))),
);

await withTypeScriptModule(
  join(root, "shared/contracts/src/openapi.ts"),
  { dir: mkdtempSync(join(tmpdir(), "svc-openapi-")) },
  ({ buildOpenApiDocument }) => {
    const text = `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
    let drifted = false;
    for (const target of targets) {
      const path = join(root, target);
      const current = existsSync(path) ? readFileSync(path, "utf8") : "";
      if (current === text) continue;
      drifted = true;
      if (check) console.error(`${target} is out of date; run \`npm run openapi\``);
      else {
        writeFileSync(path, text);
        console.log(`wrote ${relative(root, path)}`);
      }
    }
    if (check && drifted) process.exitCode = 1;
  },
);
