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
import type { Kysely, Transaction } from "kysely";
import { toOrganization } from "../domain/contract-views";
import { operatorIdempotencyOf } from "../domain/idempotency";
import { firstFreeSlug } from "../domain/unique-slug";
import { insertMemberIfNew } from "../repositories/members";
import {
  insertOrganizationIfSlugFree,
  listOrganizationSlugsLike,
  type OrganizationRecord,
} from "../repositories/organizations";
import { insertUser } from "../repositories/users";
import { type IssuedApiKey, issueApiKey, shownOnce } from "./issue-api-key";
import { deliverInvitation, inviteInTransaction, type PeopleDeps } from "./people";

type CreateOrganization = typeof operations.createOrganization;

/** Two creations racing for one slug: the loser looks again; losing this often means something is wrong. */
const SLUG_ATTEMPTS = 5;

const FIRST_OWNER_KEY_NAME = "First owner key";
/** The person who starts a fresh installation, until they give their name. */
const START_UP_OWNER_NAME = "Owner";

/**
 * A retry with the operator's Idempotency-Key gets the first organisation and its owner key back
 * instead of a second organisation, without the token, as createApiKey does (docs/decisions/0002),
 * and without the owner's invitation link, which is mailed or shown once too.
 */
export async function createOrganization(
  deps: PeopleDeps,
  context: RequestContext,
  input: OperationInput<CreateOrganization>,
): Promise<OperationOutput<CreateOrganization>> {
  const { ownerEmail } = input.body;
  let invited: Awaited<ReturnType<typeof inviteInTransaction>> | undefined;
  const created = await runIdempotent(
    deps.db,
    operatorIdempotencyOf(context, operations.createOrganization, input),
    async (trx): Promise<OperationOutput<CreateOrganization>> => {
      const owner =
        ownerEmail === undefined
          ? undefined
          : { email: ownerEmail, now: deps.clock(), lifetimeMs: deps.lifetimes.invitationMs };
      const inserted = await insertOrganizationWithOwner(trx, input.body.name, { invite: owner });
      invited = inserted.invited;
      return { organization: inserted.organization, apiKey: inserted.apiKey, owner: invited?.member ?? null };
    },
    (first) => ({ ...first, apiKey: shownOnce(first.apiKey) }),
  );
  if (invited === undefined) return created;
  const owner = await deliverInvitation(deps, invited, { origin: context.origin, inviterName: undefined });
  return { ...created, owner };
}

export interface FirstOwner {
  /** The owner key's token, chosen by the operator (the bootstrap key). */
  token?: string | undefined;
  /** Invite this person as the owner member; the key is theirs. */
  invite?: { email: string; now: Date; lifetimeMs: number } | undefined;
  /** The person starting a fresh installation: an owner member without an address yet; the key is theirs. */
  startUpOwner?: boolean;
}

/** The organisation, its first owner key and, when asked, its first owner, in the caller's transaction. */
export async function insertOrganizationWithOwner(
  trx: Transaction<Database>,
  name: string,
  first: FirstOwner = {},
): Promise<{
  organization: Organization;
  apiKey: IssuedApiKey;
  invited: Awaited<ReturnType<typeof inviteInTransaction>> | undefined;
}> {
  const organization = await insertWithFreeSlug(trx, name);
  const invited =
    first.invite &&
    (await inviteInTransaction(trx, { organizationId: organization.id, role: "owner", ...first.invite }));
  const ownerUserId =
    invited?.member.userId ??
    (first.startUpOwner ? await insertStartUpOwner(trx, organization.id) : undefined);
  const apiKey = await issueApiKey(trx, {
    organizationId: organization.id,
    name: FIRST_OWNER_KEY_NAME,
    role: "owner",
    token: first.token,
    createdByUserId: ownerUserId,
  });
  return { organization: toOrganization(organization), apiKey, invited };
}

/** The start-up owner: active from the start, since the printed link is theirs alone. */
async function insertStartUpOwner(trx: Kysely<Database>, organizationId: string): Promise<string> {
  const now = new Date();
  const user = await insertUser(trx, { id: newId(), email: null, name: START_UP_OWNER_NAME }, now);
  await insertMemberIfNew(trx, {
    id: newId(),
    organizationId,
    userId: user.id,
    role: "owner",
    status: "active",
    createdAt: now,
    updatedAt: now,
  });
  return user.id;
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
