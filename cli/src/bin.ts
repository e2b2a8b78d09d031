import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { bundleLoader } from "./bundle-loader";
import { type App, start } from "./main";

/**
 * Entry of the installed CLI (dist/svc.cjs). The rest of the CLI is dist/app.cjs and the vendor
 * bundles it loads on demand, each compiled with the V8 code cache that the build wrote beside it
 * (ignored by V8 when it was made by another Node version).
 */
function loadApp(): App {
  const fileOf = (name: string) => join(__dirname, name);
  const loader = bundleLoader(
    {
      code: (name) => readFileSync(fileOf(name), "utf8"),
      cache: (name) => {
        try {
          return readFileSync(`${fileOf(name)}.cache`);
        } catch {
          return undefined;
        }
      },
    },
    createRequire(fileOf("app.cjs")),
    __dirname,
  );
  if (process.env.SVC_WRITE_CODE_CACHE === "1") {
    process.once("exit", () => {
      for (const [name, data] of loader.caches()) writeFileSync(`${fileOf(name)}.cache`, data);
    });
  }
  return loader.load("app.cjs") as App;
}

start(async () => loadApp());
