import { start } from "./main";

/**
 * Entry of the single executable (scripts/compile.mjs): the whole CLI in one bundle, compiled to
 * bytecode when the release is built. `svc --version` answers before the rest is run.
 */
start(async () => import("./app"));
