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

/**
 * The database connection broke after a change was sent to be applied (a `COMMIT`, or a statement
 * that may write sent outside a transaction): the server may have applied it before the connection
 * went. Not a dependency being unavailable, which says that nothing was written: the bus answers it
 * `outcome_unknown`, and the gateway sends a write again under its idempotency key to learn the
 * outcome (docs/decisions/0033).
 */
export class CommitOutcomeUnknown extends Error {
  constructor(cause: unknown) {
    super("The database connection broke while a change was being applied; whether it was is unknown", {
      cause,
    });
    this.name = "CommitOutcomeUnknown";
  }
}
