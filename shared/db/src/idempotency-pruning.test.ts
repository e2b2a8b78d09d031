import { GATEWAY_KEY_PREFIX } from "@svc/contracts";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "./connect";
import { GATEWAY_KEY_RETENTION_MINUTES, pruneGatewayIdempotencyRecords } from "./idempotency";
import { migrateToLatest } from "./migrate";

describe("forgetting the gateway's idempotency keys", () => {
  let database: DatabaseHandle;
  const db = () => database.db;
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

  beforeAll(async () => {
    database = await openDatabase({});
    await migrateToLatest(db());
  });
  afterAll(async () => {
    await database?.close();
  });

  const record = (key: string, createdAt: Date) =>
    db()
      .insertInto("idempotency_records")
      .values({
        organization_id: "o",
        key,
        operation_id: "updateDatasetRow",
        request_hash: "h",
        created_at: createdAt,
      })
      .execute();
  const keys = async () =>
    (await db().selectFrom("idempotency_records").select("key").orderBy("key").execute()).map((r) => r.key);

  it("deletes the gateway's keys past their minutes, and no client key, however old", async () => {
    const old = minutesAgo(GATEWAY_KEY_RETENTION_MINUTES + 1);
    await record(`${GATEWAY_KEY_PREFIX}old`, old);
    await record(`${GATEWAY_KEY_PREFIX}new`, minutesAgo(GATEWAY_KEY_RETENTION_MINUTES - 1));
    // A client key that starts like the gateway's, but without its space.
    await record("gateway-old", old);
    await record("client-old", minutesAgo(60 * 24));

    expect(await pruneGatewayIdempotencyRecords(db())).toBe(1);
    expect(await keys()).toEqual(["client-old", "gateway new", "gateway-old"]);
  });

  it("has an index that holds the gateway's keys only", async () => {
    const { rows } = await sql<{ indexdef: string }>`
      SELECT indexdef FROM pg_indexes WHERE indexname = 'idempotency_records_gateway_created'`.execute(db());
    expect(rows[0]?.indexdef).toMatch(/WHERE \(key ~~ 'gateway %'::text\)/);
  });
});
