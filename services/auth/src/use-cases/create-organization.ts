import {
  DomainError,
  newId,
  type OperationInput,
  type OperationOutput,
  type Organization,
  operations,
  type RequestContext,
  slugify,
} from "@svc/contracts";
import { type Database, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { toOrganization } from "../domain/contract-views";
import { operatorIdempotencyOf } from "../domain/idempotency";
import { firstFreeSlug } from "../domain/unique-slug";
import {
  insertOrganizationIfSlugFree,
  listOrganizationSlugsLike,
  type OrganizationRecord,
} from "../repositories/organizations";
import { type IssuedApiKey, issueApiKey, shownOnce } from "./issue-api-key";

type CreateOrganization = typeof operations.createOrganization;

/** Two creations racing for one slug: the loser looks again; losing this often means something is wrong. */
const SLUG_ATTEMPTS = 5;

const FIRST_OWNER_KEY_NAME = "First owner key";

/**
 * A retry with the operator's Idempotency-Key gets the first organisation and its owner key back
 * instead of a second organisation, without the token, as createApiKey does (docs/decisions/0002).
 */
export async function createOrganization(
  db: Kysely<Database>,
  context: RequestContext,
  input: OperationInput<CreateOrganization>,
): Promise<OperationOutput<CreateOrganization>> {
  return runIdempotent(
    db,
    operatorIdempotencyOf(context, operations.createOrganization, input),
    (trx): Promise<OperationOutput<CreateOrganization>> => insertOrganizationWithOwner(trx, input.body.name),
    (first) => ({ ...first, apiKey: shownOnce(first.apiKey) }),
  );
}

/** The organisation and its first owner key, in the caller's transaction. */
export async function insertOrganizationWithOwner(
  db: Kysely<Database>,
  name: string,
  token?: string,
): Promise<{ organization: Organization; apiKey: IssuedApiKey }> {
  const organization = await insertWithFreeSlug(db, name);
  const apiKey = await issueApiKey(db, {
    organizationId: organization.id,
    name: FIRST_OWNER_KEY_NAME,
    role: "owner",
    token,
  });
  return { organization: toOrganization(organization), apiKey };
}

async function insertWithFreeSlug(db: Kysely<Database>, name: string): Promise<OrganizationRecord> {
  const base = slugify(name);
  for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt++) {
    const slug = firstFreeSlug(base, await listOrganizationSlugsLike(db, base));
    const inserted = await insertOrganizationIfSlugFree(db, {
      id: newId(),
      name,
      slug,
      createdAt: new Date(),
    });
    if (inserted) return inserted;
  }
  throw new DomainError(
    "conflict",
    `Could not find a free slug for the organisation "${name}" while others were being created; retry`,
  );
}
