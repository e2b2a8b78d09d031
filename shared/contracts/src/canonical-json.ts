/**
 * JSON with every object's keys in UTF-16 code-unit order and undefined members left out, so that
 * equal values always give the same text whatever order their keys were written in. Idempotency
 * records keep a hash of this text, so its output must never change: a retry inside the retention
 * window would otherwise look like a new request reusing its key.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}
