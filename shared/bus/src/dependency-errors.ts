/**
 * Errors that mean "a dependency (the database, the broker) cannot be reached right now", as opposed
 * to a bug: a refused or reset connection, a server shutting down, a pool that could not connect in
 * time. A request that meets one is answered 503 `service_unavailable`, so that clients retry, instead
 * of 500.
 */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** SQLSTATE: connection exceptions (class 08), shutdowns (57P01–57P03), too many connections. */
const SQLSTATE = /^(08...|57P0[1-3]|53300)$/;

/** What `pg` and `pg-pool` say when a connection dies or cannot be had; they set no code for these. */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /^Cannot use a pool after calling end on the pool/,
];

export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 3) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true;
  if (DRIVER_MESSAGES.some((pattern) => pattern.test(error.message))) return true;
  // Node reports a failed connection to several addresses as an AggregateError of the attempts.
  if (error instanceof AggregateError && error.errors.some((e) => isDependencyUnavailable(e, depth + 1)))
    return true;
  return isDependencyUnavailable(error.cause, depth + 1);
}
