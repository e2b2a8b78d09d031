import { DomainError, type User } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";

export type UserRecord = User;

const columns = ["id", "email", "name"] as const;

export async function insertUser(db: Kysely<Database>, user: UserRecord, at: Date): Promise<UserRecord> {
  return db
    .insertInto("users")
    .values({ ...user, created_at: at, updated_at: at })
    .returning(columns)
    .executeTakeFirstOrThrow();
}

/** The user with this (lower-case) address, or one made for it: a person exists once. */
export async function upsertUserByEmail(
  db: Kysely<Database>,
  user: UserRecord & { email: string },
  at: Date,
): Promise<UserRecord> {
  await db
    .insertInto("users")
    .values({ ...user, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column("email").doNothing())
    .execute();
  return db.selectFrom("users").select(columns).where("email", "=", user.email).executeTakeFirstOrThrow();
}

export async function findOptionalUser(db: Kysely<Database>, id: string): Promise<UserRecord | undefined> {
  return db.selectFrom("users").select(columns).where("id", "=", id).executeTakeFirst();
}

export async function findOptionalUserByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<UserRecord | undefined> {
  return db.selectFrom("users").select(columns).where("email", "=", email).executeTakeFirst();
}

/** Sets what is given; an address another user has is a conflict the caller can act on. */
export async function updateUser(
  db: Kysely<Database>,
  id: string,
  change: { name?: string | undefined; email?: string | undefined },
  at: Date,
): Promise<UserRecord> {
  if (change.email !== undefined) {
    const holder = await findOptionalUserByEmail(db, change.email);
    if (holder && holder.id !== id) {
      throw new DomainError(
        "conflict",
        `"${change.email}" is another person's address; choose an address of your own`,
        { email: change.email },
      );
    }
  }
  return db
    .updateTable("users")
    .set({
      updated_at: at,
      ...(change.name === undefined ? {} : { name: change.name }),
      ...(change.email === undefined ? {} : { email: change.email }),
    })
    .where("id", "=", id)
    .returning(columns)
    .executeTakeFirstOrThrow();
}
