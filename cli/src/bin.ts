import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Script } from "node:vm";
import { type App, start } from "./main";

/**
 * Entry of the installed CLI (dist/svc.cjs). The rest of the CLI is dist/app.cjs, compiled with the V8
 * code cache that the build wrote beside it (ignored by V8 when it was made by another Node version).
 */
function loadApp(): App {
  const file = join(__dirname, "app.cjs");
  const cacheFile = `${file}.cache`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, "utf8")}\n})`;
  const script = new Script(wrapped, cachedData ? { filename: file, cachedData } : { filename: file });
  const module = { exports: {} as App };
  script.runInThisContext()(module.exports, createRequire(file), module, file, __dirname);
  if (process.env.SVC_WRITE_CODE_CACHE === "1") {
    process.once("exit", () => writeFileSync(cacheFile, script.createCachedData()));
  }
  return module.exports;
}

start(async () => loadApp());
