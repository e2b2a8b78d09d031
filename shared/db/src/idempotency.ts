import { createHash } from "node:crypto";
import { canonicalJson, DomainError, GATEWAY_KEY_PREFIX } from "@svc/contracts";
import { type Kysely, sql, type Transaction } from "kysely";
import { jsonb } from "./json";
import type { Database } from "./schema";
import { unnestRows } from "./unnest";

/** How long a key is remembered; API.md promises at least 24 hours. */
export const IDEMPOTENCY_RETENTION_HOURS = 48;

export interface IdempotencyScope {
  organizationId: string;
  key: string;
  operationId: string;
  /** Everything that identifies the request: a retry must send exactly the same. */
  request: unknown;
}

/** Who asks, as far as idempotency cares: the organisation that scopes the key, and the key if sent. */
export interface IdempotentCaller {
  organizationId: string;
  idempotencyKey?: string | undefined;
}

/**
 * The idempotency scope of a request, present when the client sent an Idempotency-Key. `input` is the
 * parsed input, so a retry must name the same target and send the same body to get the first answer.
 */
export function idempotencyOf(
  caller: IdempotentCaller,
  op: { operationId: string },
  input: unknown,
): IdempotencyScope | undefined {
  if (!caller.idempotencyKey) return undefined;
  return {
    organizationId: caller.organizationId,
    key: caller.idempotencyKey,
    operationId: op.operationId,
    request: input,
  };
}

export const idempotencyKeyReused = (key: string): DomainError =>
  new DomainError(
    "idempotency_key_reused",
    "This Idempotency-Key was already used with a different request; use a new key for a new request",
    { idempotencyKey: key },
  );

/** Thrown to roll back a transaction that found its key already answered; carries the first answer. */
class IdempotentReplay extends Error {
  constructor(readonly response: unknown) {
    super("idempotent replay");
  }
}

/**
 * Claims an idempotency key inside the mutation's own transaction, so the record commits (or rolls
 * back) together with the change it answers for. A concurrent request with the same key waits on the
 * claim; a key already answered throws IdempotentReplay with the stored response; a key used with
 * another request is `409 idempotency_key_reused`.
 */
async function claimIdempotencyKey(trx: Transaction<Database>, scope: IdempotencyScope): Promise<void> {
  const requestHash = hashRequest(scope.operationId, scope.request);
  const claimed = await trx
    .insertInto("idempotency_records")
    .values({
      organization_id: scope.organizationId,
      key: scope.key,
      operation_id: scope.operationId,
      request_hash: requestHash,
    })
    .onConflict((oc) => oc.columns(["organization_id", "key"]).doNothing())
    .returning("key")
    .executeTakeFirst();
  if (claimed) return;
  const record = await trx
    .selectFrom("idempotency_records")
    .select(["request_hash", "response", "created_at"])
    .where("organization_id", "=", scope.organizationId)
    .where("key", "=", scope.key)
    .executeTakeFirstOrThrow();
  if (record.request_hash !== requestHash) throw idempotencyKeyReused(scope.key);
  throw new IdempotentReplay(record.response);
}

async function storeIdempotentResponse(
  trx: Transaction<Database>,
  scope: Pick<IdempotencyScope, "organizationId" | "key">,
  response: unknown,
): Promise<void> {
  await trx
    .updateTable("idempotency_records")
    .set({ response: jsonb(response) })
    .where("organization_id", "=", scope.organizationId)
    .where("key", "=", scope.key)
    .execute();
}

export type ClaimOutcome = { kind: "claimed" } | { kind: "replay"; response: unknown } | { kind: "reused" };

/**
 * Claims many keys at once (a batch of edits), in key order so that concurrent batches never wait on
 * each other in a cycle. Each key comes back claimed, answered before (its stored response), or used
 * before with another request.
 */
export async function claimIdempotencyKeys(
  trx: Transaction<Database>,
  scopes: readonly IdempotencyScope[],
): Promise<ClaimOutcome[]> {
  if (scopes.length === 0) return [];
  const hashes = scopes.map((scope) => hashRequest(scope.operationId, scope.request));
  const order = scopes
    .map((_, i) => i)
    .sort((a, b) => compareKeys(scopes[a] as IdempotencyScope, scopes[b] as IdempotencyScope));
  const claimed = await trx
    .insertInto("idempotency_records")
    .values(
      order.map((i) => ({
        organization_id: (scopes[i] as IdempotencyScope).organizationId,
        key: (scopes[i] as IdempotencyScope).key,
        operation_id: (scopes[i] as IdempotencyScope).operationId,
        request_hash: hashes[i] as string,
      })),
    )
    .onConflict((oc) => oc.columns(["organization_id", "key"]).doNothing())
    .returning(["organization_id", "key"])
    .execute();
  const won = new Set(claimed.map((c) => `${c.organization_id}\0${c.key}`));
  const lost = scopes.filter((scope) => !won.has(`${scope.organizationId}\0${scope.key}`));
  const existing =
    lost.length === 0
      ? []
      : await trx
          .selectFrom("idempotency_records")
          .select(["organization_id", "key", "request_hash", "response"])
          .where((eb) =>
            eb.or(
              lost.map((scope) =>
                eb.and([eb("organization_id", "=", scope.organizationId), eb("key", "=", scope.key)]),
              ),
            ),
          )
          .execute();
  const byKey = new Map(existing.map((r) => [`${r.organization_id}\0${r.key}`, r]));
  return scopes.map((scope, i) => {
    const id = `${scope.organizationId}\0${scope.key}`;
    if (won.has(id)) return { kind: "claimed" };
    const record = byKey.get(id);
    return record && record.request_hash === hashes[i]
      ? { kind: "replay", response: record.response }
      : { kind: "reused" };
  });
}

export async function storeIdempotentResponses(
  trx: Transaction<Database>,
  answers: readonly { organizationId: string; key: string; response: unknown }[],
): Promise<void> {
  if (answers.length === 0) return;
  await sql`
    UPDATE idempotency_records r SET response = a.response
    FROM ${unnestRows("a", { organizationId: "text", key: "text", response: "jsonb" }, answers)}
    WHERE r.organization_id = a."organizationId" AND r.key = a.key`.execute(trx);
}

export async function releaseIdempotencyKeys(
  trx: Transaction<Database>,
  scopes: readonly Pick<IdempotencyScope, "organizationId" | "key">[],
): Promise<void> {
  if (scopes.length === 0) return;
  await sql`
    DELETE FROM idempotency_records r
    USING ${unnestRows("s", { organizationId: "text", key: "text" }, scopes)}
    WHERE r.organization_id = s."organizationId" AND r.key = s.key`.execute(trx);
}

const compareKeys = (a: IdempotencyScope, b: IdempotencyScope) =>
  a.organizationId === b.organizationId
    ? a.key < b.key
      ? -1
      : a.key > b.key
        ? 1
        : 0
    : a.organizationId < b.organizationId
      ? -1
      : 1;

/**
 * Runs a mutation's transaction at most once per idempotency key: the first call's answer is stored
 * with the change, and every retry with the same key and request gets that answer back, or what
 * `replayOf` makes of it when the first answer holds a secret that must not be stored (a new key's
 * token: docs/decisions/0002).
 */
export async function runIdempotent<T>(
  db: Kysely<Database>,
  scope: IdempotencyScope | undefined,
  mutate: (trx: Transaction<Database>) => Promise<T>,
  replayOf: (first: T) => T = (first) => first,
): Promise<T> {
  if (!scope) return db.transaction().execute(mutate);
  try {
    return await db.transaction().execute(async (trx) => {
      await claimIdempotencyKey(trx, scope);
      const result = await mutate(trx);
      await storeIdempotentResponse(trx, scope, replayOf(result) ?? null);
      return result;
    });
  } catch (error) {
    if (error instanceof IdempotentReplay) return error.response as T;
    throw error;
  }
}

/**
 * Forgets keys past their retention; cheap enough to call now and then from any writer. `now` is the
 * caller's clock, so that a test can move time instead of waiting for it.
 */
export async function pruneIdempotencyRecords(db: Kysely<Database>, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_RETENTION_HOURS * 60 * 60 * 1000);
  const result = await db
    .deleteFrom("idempotency_records")
    .where("created_at", "<", cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * How long the gateway's own keys are remembered: it sends a write again within seconds of the first
 * try, never after the request's timeout (docs/decisions/0033). Minutes, not the clients' 48 hours,
 * so that the keys of every write the gateway forwards do not pile up.
 */
export const GATEWAY_KEY_RETENTION_MINUTES = 5;

/**
 * Forgets the gateway's keys past their retention. The condition on the key is written out as it is
 * in the partial index that serves it (migration 0016), so that the delete reads that index only.
 */
export async function pruneGatewayIdempotencyRecords(
  db: Kysely<Database>,
  now = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - GATEWAY_KEY_RETENTION_MINUTES * 60 * 1000);
  const result = await sql`
    DELETE FROM idempotency_records
    WHERE key LIKE ${sql.lit(`${GATEWAY_KEY_PREFIX}%`)} AND created_at < ${cutoff}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** What identifies a request under its key: a retry must send the same. */
export const requestHashOf = (scope: Pick<IdempotencyScope, "operationId" | "request">): string =>
  hashRequest(scope.operationId, scope.request);

function hashRequest(operationId: string, request: unknown): string {
  return createHash("sha256").update(operationId).update("\0").update(canonicalJson(request)).digest("hex");
}
