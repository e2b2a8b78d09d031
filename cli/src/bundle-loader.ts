import type { Script } from "node:vm";

/**
 * Where the CLI's bundles come from: files beside dist/svc.cjs, or the assets of the single
 * executable. `app.cjs` is the CLI; `vendor/<package>.cjs` are the registry packages it loads on
 * demand. Each may have a V8 code cache (`<name>.cache`), made at build time.
 */
export interface BundleSource {
  code(name: string): string;
  cache(name: string): Buffer | undefined;
}

/** The vendor bundles, as build.mjs writes them and app.cjs requires them. */
export const VENDORS = ["undici", "yaml", "jmespath", "dbus-native"].map((name) => `vendor/${name}.cjs`);

export interface BundleLoader {
  /** Runs a bundle once (CommonJS) and returns its exports. */
  load(name: string): unknown;
  /** Every bundle's code cache as it stands, after loading the vendors that were not needed. */
  caches(): Map<string, Buffer>;
}

/**
 * Runs bundles with their code caches, so that V8 does not compile them again at every start. The
 * wrapper is the same everywhere, as a code cache only fits the exact source it was made from.
 * `fallback` is the require for everything else (Node's modules, the secret-store addon).
 */
export function bundleLoader(
  source: BundleSource,
  fallback: (id: string) => unknown,
  dir: string,
): BundleLoader {
  const loaded = new Map<string, { exports: unknown; script: Script }>();
  const load = (name: string): unknown => {
    const done = loaded.get(name);
    if (done) return done.exports;
    // Required here, not at the top: `svc --version` never gets this far.
    const { Script } = require("node:vm") as typeof import("node:vm");
    const wrapped = `(function (exports, require, module, __filename, __dirname) {${source.code(name)}\n})`;
    const cachedData = source.cache(name);
    const script = new Script(wrapped, cachedData ? { filename: name, cachedData } : { filename: name });
    if (process.env.SVC_DEBUG_CODE_CACHE === "1") {
      const state = cachedData === undefined ? "none" : script.cachedDataRejected ? "rejected" : "accepted";
      process.stderr.write(`svc: code cache of ${name}: ${state}\n`);
    }
    const module = { exports: {} as unknown };
    loaded.set(name, { exports: module.exports, script });
    const localRequire = (id: string): unknown =>
      id.startsWith("./vendor/") ? load(id.slice(2)) : fallback(id);
    script.runInThisContext()(module.exports, localRequire, module, `${dir}/${name}`, dir);
    loaded.set(name, { exports: module.exports, script });
    return module.exports;
  };
  return {
    load,
    caches() {
      for (const vendor of VENDORS) load(vendor);
      return new Map([...loaded].map(([name, { script }]) => [name, script.createCachedData()]));
    },
  };
}
