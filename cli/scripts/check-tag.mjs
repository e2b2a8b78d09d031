#!/usr/bin/env node
// Checks that a release tag names the version in cli/package.json: `cli-v<that version>`, the version
// `svc --version` prints. Usage: check-tag.mjs [tag]; without an argument, the tag of a CI run
// (GITHUB_REF_NAME, when it is a `cli-` tag) is checked, and nothing when there is none.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const packageVersion = () =>
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;

const TAG = /^cli-v(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/;

/** Why `tag` does not name `version`, or undefined when it does. */
export function tagMismatch(tag, version) {
  const match = TAG.exec(tag);
  if (!match) return `the tag "${tag}" is not of the form cli-v<major>.<minor>.<patch>`;
  if (match[1] !== version) {
    return `the tag ${tag} names version ${match[1]}, but cli/package.json is at ${version}: set "version" to ${match[1]} (svc --version prints it) or tag cli-v${version}`;
  }
  return undefined;
}

/** The tag to check: the argument, else a CI run's `cli-` tag, else none. */
export function tagToCheck(args, env) {
  if (args[0] !== undefined) return args[0];
  const ref = env.GITHUB_REF_NAME?.trim();
  return ref?.startsWith("cli-") ? ref : undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const tag = tagToCheck(process.argv.slice(2), process.env);
  const version = packageVersion();
  if (tag === undefined) {
    console.log(`no cli-v tag to check (cli/package.json is at ${version})`);
  } else {
    const mismatch = tagMismatch(tag, version);
    if (mismatch) {
      console.error(`check-tag: ${mismatch}`);
      process.exitCode = 1;
    } else console.log(`${tag} matches cli/package.json`);
  }
}
