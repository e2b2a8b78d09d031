import packageJson from "../package.json" with { type: "json" };

export const VERSION: string = packageJson.version;
export const USER_AGENT = `svc/${VERSION}`;

/** The date printed in the manual page; set when a release is cut, so that the page is reproducible. */
export const RELEASE_DATE = "2026-11-22";
