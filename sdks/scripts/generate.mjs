#!/usr/bin/env node
// Regenerates both SDKs from shared/contracts/openapi.json (run it after `npm run openapi`).
// Usage: generate.mjs [--check] [typescript|python ...]
//   --check writes nothing and exits 1 when a generated file is out of date.
import { generate as generatePython } from "../python/scripts/generate.mjs";
import { generate as generateTypeScript } from "../typescript/scripts/generate.mjs";
import { loadDocument, writeOrCheck } from "./openapi-model.mjs";

const generators = { typescript: generateTypeScript, python: generatePython };

const args = process.argv.slice(2);
const check = args.includes("--check");
const only = args.filter((arg) => !arg.startsWith("--"));
for (const name of only) {
  if (!(name in generators)) {
    console.error(`unknown SDK "${name}"; expected one of ${Object.keys(generators).join(", ")}`);
    process.exit(2);
  }
}

const document = loadDocument();
let stale = false;
for (const [name, generate] of Object.entries(generators)) {
  if (only.length > 0 && !only.includes(name)) continue;
  for (const path of writeOrCheck(generate(document), { check })) {
    stale = true;
    console.log(check ? `${path} is out of date; run \`node sdks/scripts/generate.mjs\`` : `wrote ${path}`);
  }
}
if (check && stale) process.exitCode = 1;
