import { readdirSync, readFileSync } from "node:fs";

/**
 * A serve call: `serveOperation(bus, operations.x, …)`, or a service's own helper's, as the reader's
 * `serveRead(deps, operations.x, …)`.
 */
const SERVED = /serve\w*\(\s*\w+,\s*operations\.(\w+)/;

/** `updateApiKey` → `update-api-key`. */
export const kebabOf = (name: string): string =>
  name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/**
 * One name per operation: each operation a handler serves calls (or hands over) the use-case named as
 * the operation, from `use-cases/<kebab-operation-id>.ts` (`updateApiKey` from
 * `use-cases/update-api-key.ts`). Reads the handlers' source in `handlersDir` and returns what breaks
 * the rule, one line each.
 */
export function useCaseNameMismatches(handlersDir: URL): string[] {
  const files = readdirSync(handlersDir).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"));
  const sources = files.map((file) => [file, readFileSync(new URL(file, handlersDir), "utf8")] as const);
  // A rule that finds nothing to check must not pass for it.
  if (!sources.some(([, source]) => SERVED.test(source)))
    return [`${handlersDir.pathname}: serves no operation`];
  return sources.flatMap(([file, source]) => mismatchesIn(file, source));
}

/** The rule for one handler file's source; exported for its own test. */
export function mismatchesIn(file: string, source: string): string[] {
  const importedFrom = new Map<string, string>();
  for (const [, names = "", from = ""] of source.matchAll(
    /import\s*\{([^}]*)\}\s*from\s*"(\.\.\/use-cases\/[^"]+)"/g,
  )) {
    for (const name of names.split(",")) {
      const bare = name.replace(/^\s*type\s+/, "").trim();
      if (bare !== "") importedFrom.set(bare, from);
    }
  }
  const served = [...source.matchAll(new RegExp(SERVED, "g"))];
  return served.flatMap((match, i) => {
    const operationId = match[1] as string;
    const body = source.slice(match.index, served[i + 1]?.index ?? source.length);
    // A name called, `getApiKey(`, or handed over as an argument, `getApiKey)`; not `operations.getApiKey,`.
    const called = [...body.matchAll(/(?<![.\w])(\w+)\s*(?=[(),])/g)]
      .map(([, name]) => name as string)
      .find((name) => importedFrom.has(name));
    const expected = `../use-cases/${kebabOf(operationId)}`;
    if (called === operationId && importedFrom.get(called) === expected) return [];
    const found = called === undefined ? "no use-case" : `${called} from ${importedFrom.get(called)}`;
    return [`${file}: ${operationId} calls ${found}; expected ${operationId} from ${expected}`];
  });
}
