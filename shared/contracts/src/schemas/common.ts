import { z } from "zod";

export const roles = ["owner", "admin", "member", "viewer"] as const;
export const roleSchema = z.enum(roles);
export type Role = z.infer<typeof roleSchema>;

const roleRank: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };
/** True when `role` may do what `least` may do. */
export const roleAtLeast = (role: Role, least: Role): boolean => roleRank[role] >= roleRank[least];

export const actorSchema = z
  .object({
    kind: z.enum(["apiKey", "oauth", "session", "user"]),
    id: z.string(),
    name: z
      .string()
      .optional()
      .describe("For a user: their name as it is now (a rename shows on everything they changed)"),
  })
  .describe(
    "Who made a change: an API key, an OAuth grant (an agent's connection a person approved), a browser session opened with a key, or a person (a user signed in as themselves)",
  );
export type Actor = z.infer<typeof actorSchema>;

/** What every bus request carries besides its input: who asks, on behalf of which organisation. */
export const requestContextSchema = z.object({
  organizationId: z.string().nullable(),
  role: roleSchema.nullable(),
  actor: actorSchema.nullable(),
  /**
   * The browser session the request rides on, when it does: a person's session acts as the user,
   * so this, not the actor, is what ends when the session does.
   */
  sessionId: z.string().optional(),
  /** The address the caller reached the platform at, for links made for them (an invitation's). */
  origin: z.string().optional(),
  requestId: z.string(),
  idempotencyKey: z.string().optional(),
  /**
   * Set on a write the gateway sends again because whether an earlier try was applied is unknown
   * (the service that took it went silent). Such a try is not refused for a backlog: a refusal could
   * only be answered `outcome_unknown`, while waiting its turn gives the client a definite answer.
   */
  resend: z.literal(true).optional(),
  /**
   * When the requester stops waiting, in milliseconds since the epoch: set by the bus from the request's
   * timeout, never later than a deadline the request already carries. Work that has not started by
   * then is dropped, not done late (the platform's hosts keep their clocks in step).
   */
  deadline: z.number().int().optional(),
  /**
   * The dataset version the caller wrote and must see (`X-Svc-Min-Version`): a read waits for a read
   * standby to have it, or runs on the primary.
   */
  minVersion: z.number().int().min(0).optional(),
});
export type RequestContext = z.infer<typeof requestContextSchema>;

/**
 * A request's context once the bus has checked that it carries a credential (see `serveOperation`):
 * what an operation's handler receives, never without an organisation, a role or an actor.
 */
export interface Caller extends RequestContext {
  organizationId: string;
  role: Role;
  actor: Actor;
}

export const timestampSchema = z.string().describe("ISO-8601 timestamp in UTC");

/**
 * Checked as sent, then trimmed: the document's minLength, maxLength and pattern then say exactly what
 * is refused (a limit checked after trimming would refuse less than the document says).
 */
export const nameSchema = z
  .string()
  .min(1, { error: "must not be empty", abort: true })
  .max(200, "must be at most 200 characters")
  .regex(/\S/, "must not be empty")
  .trim();

/**
 * A whole number that arrives as text (query string, path, header): digits only. `z.coerce` would
 * quietly read "" and " " as 0, "0x10" as 16, "1e2" as 100 and ["5"] as 5, so that `?version=` meant
 * version 0. Anything but digits is left as it is for `inner` to refuse; a JSON number (a body, an
 * internal caller) goes to `inner` unchanged.
 */
export function wholeNumberFromText<T extends z.ZodType<number>>(inner: T) {
  return z.preprocess(
    (value) => (typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value),
    inner,
  );
}

/** A page's size in a JSON body: a number, as the document says (a query's arrives as text: `limitSchema`). */
export const bodyLimitSchema = z
  .number({ error: "must be an integer from 1 to 200" })
  .int("must be an integer from 1 to 200")
  .min(1, "must be at least 1")
  .max(200, "must be at most 200")
  .default(50)
  .describe(
    "Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore",
  );

export const limitSchema = wholeNumberFromText(bodyLimitSchema);

export const cursorSchema = z
  .string()
  .min(1)
  .max(2000)
  .describe("Opaque cursor from a previous page's nextCursor");

export const paginationQuerySchema = z.strictObject({
  cursor: cursorSchema.optional(),
  limit: limitSchema,
});

export const sortDirectionSchema = z.enum(["asc", "desc"]);

/** The largest PostgreSQL `integer`. */
export const MAX_INT32 = 2_147_483_647;

/**
 * The largest dataset version: versions are PostgreSQL `integer`s. Every version a request names (a
 * path, a query, If-Match, a body's `ifMatch`) is checked against it here, once, so that a larger one
 * is the client's `400`, not the database's "value out of range" as a 500.
 */
export const MAX_VERSION = MAX_INT32;
const VERSION_RANGE = `must be an integer from 0 to ${MAX_VERSION}`;

/** A dataset version as a JSON number (a body's `ifMatch`). */
export const versionSchema = z
  .number({ error: VERSION_RANGE })
  // One problem, one issue: 1e20 is neither a safe integer nor at most MAX_VERSION.
  .int({ error: VERSION_RANGE, abort: true })
  .min(0, { error: VERSION_RANGE, abort: true })
  .max(MAX_VERSION, VERSION_RANGE);

/** A dataset version as text (a path, a query, a header), or a JSON number from an internal caller. */
export const versionNumberSchema = wholeNumberFromText(versionSchema);

/** A query-string boolean: `true` or `false`, nothing else. */
export const queryBooleanSchema = z
  .enum(["true", "false"], { error: "must be true or false" })
  .transform((value) => value === "true");

export function page<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    nextCursor: z.string().nullable(),
    hasMore: z.boolean(),
  });
}
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

export const emptySchema = z.strictObject({});
