import { type App, start } from "./main";
import { seaBundles } from "./sea-bundles";

/**
 * Entry of the single executable, but for the one built on the release's own system (see
 * sea-snapshot.ts). The CLI's bundles are assets of the executable, run only when needed: `svc
 * --version` compiles nothing but this.
 */
start(async () => seaBundles().load("app.cjs") as App);
