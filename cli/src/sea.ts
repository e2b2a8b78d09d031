import { bundleLoader } from "./bundle-loader";
import { type App, start } from "./main";

/**
 * Entry of the single executable. The CLI's bundles are assets of the executable (the same files as
 * dist/, with their code caches), run only when needed: `svc --version` compiles nothing but this.
 */
function loadApp(): App {
  const sea = require("node:sea") as {
    getAsset(key: string): ArrayBuffer;
    getAsset(key: string, encoding: string): string;
  };
  const loader = bundleLoader(
    {
      code: (name) => sea.getAsset(name, "utf8"),
      cache: (name) => {
        try {
          return Buffer.from(sea.getAsset(`${name}.cache`));
        } catch {
          return undefined;
        }
      },
    },
    // The secret-store addon is carried as an asset too (see keyring-sea.ts, required only when the
    // secret store is used, as it needs node:crypto); the rest is Node's own.
    (id) =>
      id === "@napi-rs/keyring"
        ? (require("./keyring-sea") as typeof import("./keyring-sea")).keyringAddon()
        : require(id),
    process.execPath.replace(/[\\/][^\\/]*$/, ""),
  );
  return loader.load("app.cjs") as App;
}

start(async () => loadApp());
