import { SvcError } from "../api";
import { isUnavailable } from "../connection";
import { sizeOf } from "../words";

/**
 * What a failed save meant for the person's edits, said before the error: that they are kept, and,
 * when the platform refused a body over its size limit, how large the edit was. Undefined when the
 * error says it all.
 */
export function notSavedLead(error: unknown, body: unknown, count: "one" | "many"): string | undefined {
  const kept = count === "one" ? "your edit is kept" : "your edits are kept";
  if (isUnavailable(error)) return `Not saved; ${kept}.`;
  if (error instanceof SvcError && error.code === "payload_too_large") {
    const size = sizeOf(new TextEncoder().encode(JSON.stringify(body ?? null)).length);
    return `Not saved: ${count === "one" ? "this edit is" : "these edits are"} ${size}; ${kept} in this browser.`;
  }
  return undefined;
}
