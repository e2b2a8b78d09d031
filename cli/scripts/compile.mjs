// Compiles the single executable `svc` for one target. Run by Bun (release.mjs starts it with the
// Bun of the machine that builds): `bun compile.mjs '<json>'`, the JSON holding
//   target          Bun's name of the target, e.g. "bun-linux-x64-baseline"
//   outfile         where the executable goes
//   addon           the target's secret-store addon (.node), embedded in the executable
//   executablePath  the target's Bun binary, as fetched from the npm registry
// The whole CLI is bundled from its sources and compiled to bytecode (docs/decisions/0029).
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const cli = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { target, outfile, addon, executablePath } = JSON.parse(process.argv[2] ?? "{}");
if (!target || !outfile || !addon || !executablePath) {
  console.error("compile.mjs: give target, outfile, addon and executablePath as one JSON argument");
  process.exit(2);
}

/**
 * `@napi-rs/keyring` becomes the addon embedded in the executable, loaded on first use from a
 * private copy (src/keyring-executable.ts); the package's own loader would look for the addon of
 * the building machine in node_modules.
 */
const embeddedKeyring = {
  name: "embedded-keyring",
  async setup(build) {
    // The package's exports, as the building machine's own addon has them: every target's has the same.
    const names = Object.keys(await import("@napi-rs/keyring")).filter((name) => name !== "default");
    build.onResolve({ filter: /^@napi-rs\/keyring$/ }, () => ({ path: "keyring", namespace: "embedded" }));
    build.onLoad({ filter: /.*/, namespace: "embedded" }, () => ({
      contents: [
        `import addon from ${JSON.stringify(addon)} with { type: "file" };`,
        `import { loadKeyring } from ${JSON.stringify(join(cli, "src/keyring-executable.ts"))};`,
        "const keyring = loadKeyring(addon);",
        `export const { ${names.join(", ")} } = keyring;`,
      ].join("\n"),
      loader: "js",
    }));
  },
};

/**
 * The command tree is built from the OpenAPI document here, once, instead of at every start: the
 * document's object and the walk over it were a third of what `svc projects list` spent before
 * sending its request. The executable parses the tree from JSON text, which is faster than
 * evaluating it as an object literal.
 */
const treeAtBuild = {
  name: "tree-at-build",
  async setup(build) {
    const { buildTree } = await import(join(cli, "src/spec/tree.ts"));
    const document = await Bun.file(join(cli, "openapi.json")).json();
    const tree = buildTree(document);
    const text = JSON.stringify(tree);
    // Only data survives JSON: a tree that held anything else would lose it here.
    if (!Bun.deepEquals(JSON.parse(text), tree)) throw new Error("the command tree does not survive JSON");
    build.onLoad({ filter: /[\\/]src[\\/]spec[\\/]document\.ts$/ }, () => ({
      contents: `const tree = JSON.parse(${JSON.stringify(text)});\nexport function commandTree() { return tree; }`,
      loader: "js",
    }));
  },
};

const result = await Bun.build({
  entrypoints: [join(cli, "src/executable.ts")],
  compile: {
    target,
    outfile,
    executablePath,
    // A CLI reads its settings from its own variables and files, not from a .env or bunfig.toml that
    // happens to be in the folder it runs in.
    autoloadDotenv: false,
    autoloadBunfig: false,
  },
  format: "cjs",
  bytecode: true,
  minify: true,
  conditions: ["source"],
  plugins: [embeddedKeyring, treeAtBuild],
  throw: false,
});
if (!result.success) {
  for (const log of result.logs) console.error(String(log));
  process.exit(1);
}
