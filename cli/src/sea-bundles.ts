import { type BundleLoader, bundleLoader } from "./bundle-loader";

let loader: BundleLoader | undefined;

/**
 * The CLI's bundles inside the single executable: assets of the executable (the same files as
 * dist/, with their code caches), each run on first use.
 */
export function seaBundles(): BundleLoader {
  loader ??= createLoader();
  return loader;
}

function createLoader(): BundleLoader {
  const sea = require("node:sea") as {
    getAsset(key: string): ArrayBuffer;
    getAsset(key: string, encoding: string): string;
  };
  return bundleLoader(
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
}
