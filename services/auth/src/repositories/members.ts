import { DomainError, type MemberStatus, memberStatusSchema, type Role, roleSchema } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import type { Position } from "../domain/cursor";

export interface MemberRecord {
  id: string;
  organizationId: string;
  userId: string;
  email: string | null;
  name: string;
  role: Role;
  status: MemberStatus;
  createdAt: Date;
  updatedAt: Date;
}

export type NewMember = Omit<MemberRecord, "email" | "name">;

type Row = Omit<MemberRecord, "role" | "status"> & { role: string; status: string };

const toRecord = (row: Row): MemberRecord => ({
  ...row,
  role: roleSchema.parse(row.role),
  status: memberStatusSchema.parse(row.status),
});

/** Members with their person's address and name, which live once, with the user. */
function membersWithUsers(db: Kysely<Database>) {
  return db
    .selectFrom("members as m")
    .innerJoin("users as u", "u.id", "m.user_id")
    .select([
      "m.id",
      "m.organization_id as organizationId",
      "m.user_id as userId",
      "u.email",
      "u.name",
      "m.role",
      "m.status",
      "m.created_at as createdAt",
      "m.updated_at as updatedAt",
    ]);
}

/** Inserts unless the user is already a member of the organisation: then undefined. */
export async function insertMemberIfNew(
  db: Kysely<Database>,
  member: NewMember,
): Promise<string | undefined> {
  const row = await db
    .insertInto("members")
    .values({
      id: member.id,
      organization_id: member.organizationId,
      user_id: member.userId,
      role: member.role,
      status: member.status,
      created_at: member.createdAt,
      updated_at: member.updatedAt,
    })
    .onConflict((oc) => oc.columns(["organization_id", "user_id"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id;
}

const memberNotFound = (id: string) =>
  new DomainError("not_found", `Member "${id}" not found; list the organisation's members to see their ids`);

/** A member of this organisation; another organisation's is "not found" too, never "forbidden". */
export async function findMember(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<MemberRecord> {
  const row = await membersWithUsers(db)
    .where("m.organization_id", "=", organizationId)
    .where("m.id", "=", id)
    .executeTakeFirst();
  if (!row) throw memberNotFound(id);
  return toRecord(row);
}

export async function findOptionalMemberById(
  db: Kysely<Database>,
  id: string,
): Promise<MemberRecord | undefined> {
  const row = await membersWithUsers(db).where("m.id", "=", id).executeTakeFirst();
  return row && toRecord(row);
}

/** The membership of a user in an organisation, if they have one. */
export async function findOptionalMemberOfUser(
  db: Kysely<Database>,
  organizationId: string,
  userId: string,
): Promise<MemberRecord | undefined> {
  const row = await membersWithUsers(db)
    .where("m.organization_id", "=", organizationId)
    .where("m.user_id", "=", userId)
    .executeTakeFirst();
  return row && toRecord(row);
}

/** Every membership of the person with this address, with the name of each organisation. */
export async function listMembershipsOfEmail(
  db: Kysely<Database>,
  email: string,
): Promise<(MemberRecord & { organizationName: string })[]> {
  const rows = await membersWithUsers(db)
    .innerJoin("organizations as o", "o.id", "m.organization_id")
    .select("o.name as organizationName")
    .where("u.email", "=", email)
    .orderBy("o.name", "asc")
    .orderBy("m.id", "asc")
    .execute();
  return rows.map((row) => ({ ...toRecord(row), organizationName: row.organizationName }));
}

/** Up to `limit` members in (created_at, id) order, strictly after `after` when given. */
export async function listMembers(
  db: Kysely<Database>,
  organizationId: string,
  after: Position | undefined,
  limit: number,
): Promise<MemberRecord[]> {
  let query = membersWithUsers(db).where("m.organization_id", "=", organizationId);
  if (after) {
    query = query.where(({ eb, refTuple, tuple }) =>
      eb(refTuple("m.created_at", "m.id"), ">", tuple(after.createdAt, after.id)),
    );
  }
  const rows = await query.orderBy("m.created_at", "asc").orderBy("m.id", "asc").limit(limit).execute();
  return rows.map(toRecord);
}

export async function countOwnerMembers(db: Kysely<Database>, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom("members")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("organization_id", "=", organizationId)
    .where("role", "=", "owner")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function updateMemberRole(
  db: Kysely<Database>,
  id: string,
  role: Role,
  at: Date,
): Promise<void> {
  await db.updateTable("members").set({ role, updated_at: at }).where("id", "=", id).execute();
}

/** An invited member becomes active at their first sign-in; an active one stays as it is. */
export async function updateMemberActive(db: Kysely<Database>, id: string, at: Date): Promise<void> {
  await db
    .updateTable("members")
    .set({ status: "active", updated_at: at })
    .where("id", "=", id)
    .where("status", "=", "invited")
    .execute();
}

/** Deletes the member; their sessions and unused sign-in codes go with it (foreign keys cascade). */
export async function deleteMemberRecord(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom("members").where("id", "=", id).execute();
}
