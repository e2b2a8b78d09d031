import { start } from "./main";

/** Entry of the single executable: everything is in one script, loaded on demand. */
start(() => import("./app"));
