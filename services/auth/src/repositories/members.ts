import { DomainError, type Role, roleSchema } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import type { Position } from "../domain/cursor";

export interface MemberRecord {
  id: string;
  organizationId: string;
  email: string;
  role: Role;
  createdAt: Date;
  updatedAt: Date;
}

const columns = [
  "id",
  "organization_id as organizationId",
  "email",
  "role",
  "created_at as createdAt",
  "updated_at as updatedAt",
] as const;

type Row = Omit<MemberRecord, "role"> & { role: string };

const toRecord = (row: Row): MemberRecord => ({ ...row, role: roleSchema.parse(row.role) });

/** Inserts unless the organisation already has a member with that email: then undefined. */
export async function insertMemberIfEmailFree(
  db: Kysely<Database>,
  member: MemberRecord,
): Promise<MemberRecord | undefined> {
  const row = await db
    .insertInto("members")
    .values({
      id: member.id,
      organization_id: member.organizationId,
      email: member.email,
      role: member.role,
      created_at: member.createdAt,
      updated_at: member.updatedAt,
    })
    .onConflict((oc) => oc.columns(["organization_id", "email"]).doNothing())
    .returning(columns)
    .executeTakeFirst();
  return row && toRecord(row);
}

/** A member of this organisation; another organisation's is "not found" too, never "forbidden". */
export async function findMember(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<MemberRecord> {
  const row = await db
    .selectFrom("members")
    .select(columns)
    .where("organization_id", "=", organizationId)
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) {
    throw new DomainError(
      "not_found",
      `Member "${id}" not found; list the organisation's members to see their ids`,
    );
  }
  return toRecord(row);
}

/** Up to `limit` members in (created_at, id) order, strictly after `after` when given. */
export async function listMembers(
  db: Kysely<Database>,
  organizationId: string,
  after: Position | undefined,
  limit: number,
): Promise<MemberRecord[]> {
  let query = db.selectFrom("members").select(columns).where("organization_id", "=", organizationId);
  if (after) {
    query = query.where(({ eb, refTuple, tuple }) =>
      eb(refTuple("created_at", "id"), ">", tuple(after.createdAt, after.id)),
    );
  }
  const rows = await query.orderBy("created_at", "asc").orderBy("id", "asc").limit(limit).execute();
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
): Promise<MemberRecord> {
  const row = await db
    .updateTable("members")
    .set({ role, updated_at: at })
    .where("id", "=", id)
    .returning(columns)
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function deleteMemberRecord(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom("members").where("id", "=", id).execute();
}
