import {
  type Caller,
  type OperationInput,
  type OperationOutput,
  type operations,
  toPage,
} from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { toMember } from "../domain/contract-views";
import { decodePosition, encodePosition } from "../domain/cursor";
import { listMembers as listMemberRecords } from "../repositories/members";

type ListMembers = typeof operations.listMembers;

/** One page in (createdAt, id) order; the cursor holds the last position, so additions never shift pages. */
export async function listMembers(
  db: Kysely<Database>,
  caller: Caller,
  { query }: OperationInput<ListMembers>,
): Promise<OperationOutput<ListMembers>> {
  const after = query.cursor === undefined ? undefined : decodePosition(query.cursor);
  // One extra row says whether another page exists without a count.
  const records = await listMemberRecords(db, caller.organizationId, after, query.limit + 1);
  return toPage(records, query.limit, toMember, encodePosition);
}
