import {
  type Caller,
  type OperationInput,
  type OperationOutput,
  type operations,
  toPage,
} from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { toProject } from "../domain/contract-views";
import { decodePosition, encodePosition } from "../domain/cursor";
import { listProjects as listProjectRecords } from "../repositories/projects";

type ListProjects = typeof operations.listProjects;

/** One page in (createdAt, id) order; the cursor holds the last position, so inserts never shift pages. */
export async function listProjects(
  db: Kysely<Database>,
  caller: Caller,
  { query }: OperationInput<ListProjects>,
): Promise<OperationOutput<ListProjects>> {
  const after = query.cursor === undefined ? undefined : decodePosition(query.cursor);
  // One extra row says whether another page exists without a count.
  const records = await listProjectRecords(db, caller.organizationId, after, query.limit + 1);
  return toPage(records, query.limit, toProject, encodePosition);
}
