import { VERSION } from "./version";

export type App = typeof import("./app");

/**
 * The process around the CLI. `--version` answers before anything else is loaded; the rest is loaded
 * on demand, so that help and version stay fast.
 */
export function start(loadApp: () => Promise<App>): void {
  // Node's deprecation notices are for the developers of svc, not its users; on standard error they
  // would break the one-line (or one JSON object) contract.
  process.noDeprecation = true;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
  });
  main(process.argv.slice(2), loadApp).then(exit, (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`svc: internal error: ${message.split("\n")[0]}\n`);
    exit(5);
  });
}

async function main(argv: string[], loadApp: () => Promise<App>): Promise<number> {
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    process.stdout.write(`svc ${VERSION}\n`);
    return 0;
  }
  const { run } = await loadApp();
  return run(argv);
}

/**
 * Ends once standard output and standard error are flushed, so that a pipe gets everything. Ending
 * the streams waits for every byte: Bun (which runs the single executable) calls back an empty
 * write's callback while earlier output still waits for a slow reader, and exiting then cut a pipe's
 * output at 64 KiB.
 */
function exit(code: number): void {
  let pending = 2;
  const done = () => {
    pending -= 1;
    if (pending === 0) process.exit(code);
  };
  process.stdout.end(done);
  process.stderr.end(done);
}
