import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../connect";
import { jsonb } from "../json";
import { migrateToLatest } from "../migrate";
import { up } from "./0015-stored-tokens-withheld";

describe("migration 0014: stored answers of key creations lose their tokens", () => {
  let database: DatabaseHandle;
  const db = () => database.db;
  const key = { id: "k1", name: "CI", role: "member", maskedToken: "svc_…abcd", lastUsedAt: null };
  const token = "svc_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG";

  beforeAll(async () => {
    database = await openDatabase({});
    await migrateToLatest(db());
  });
  afterAll(async () => {
    await database?.close();
  });

  const record = (key: string, operationId: string, response: unknown) =>
    db()
      .insertInto("idempotency_records")
      .values({
        organization_id: "o",
        key,
        operation_id: operationId,
        request_hash: "h",
        response: jsonb(response),
      })
      .execute();
  const stored = async (key: string) =>
    (
      await db()
        .selectFrom("idempotency_records")
        .select("response")
        .where("key", "=", key)
        .executeTakeFirstOrThrow()
    ).response;

  it("withholds the token of a createApiKey and a createOrganization answer, and leaves others alone", async () => {
    await record("api-key", "createApiKey", { ...key, token });
    await record("organization", "createOrganization", {
      organization: { id: "o2", name: "O" },
      apiKey: { ...key, token },
    });
    await record("project", "createProject", { id: "p", token: "not a key's" });

    await up(db() as never);

    expect(await stored("api-key")).toEqual({ ...key, token: null, tokenAlreadyShown: true });
    expect(await stored("organization")).toEqual({
      organization: { id: "o2", name: "O" },
      apiKey: { ...key, token: null, tokenAlreadyShown: true },
    });
    expect(await stored("project")).toEqual({ id: "p", token: "not a key's" });
  });
});
