import { DomainError, type InvitedMember, newId, type Role } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Logger } from "@svc/telemetry";
import type { Kysely, Transaction } from "kysely";
import { toMember } from "../domain/contract-views";
import { addMs, type Clock } from "../domain/oauth";
import { newSignInCode, type SessionLifetimes } from "../domain/sessions";
import { hashToken } from "../domain/tokens";
import type { Mailer } from "../mail/mailer";
import { invitationMessage, signInLink } from "../mail/sign-in-mail";
import { insertSignInCode } from "../repositories/browser-sessions";
import { findMember, insertMemberIfNew } from "../repositories/members";
import { findOptionalOrganization } from "../repositories/organizations";
import { upsertUserByEmail } from "../repositories/users";

/** What inviting people and mailing them links needs beside the database. */
export interface PeopleDeps {
  db: Kysely<Database>;
  clock: Clock;
  lifetimes: SessionLifetimes;
  logger: Logger;
  /** Sends invitations and sign-in links; undefined when the platform has no SVC_SMTP_URL. */
  mailer?: Mailer | undefined;
  /**
   * Where links in mail point (SVC_PUBLIC_URL, or the embedded process's address): never a request's
   * Host header, which whoever sends the request chooses.
   */
  publicUrl?: (() => string | undefined) | undefined;
}

/** A single-use sign-in code for a member, stored hashed; the code itself only in the answer. */
export async function issueMemberSignInCode(
  db: Kysely<Database>,
  member: { memberId: string; email?: string | undefined },
  now: Date,
  lifetimeMs: number,
): Promise<string> {
  const code = newSignInCode();
  await insertSignInCode(db, {
    codeHash: hashToken(code),
    memberId: member.memberId,
    email: member.email,
    createdAt: now,
    expiresAt: addMs(now, lifetimeMs),
  });
  return code;
}

/**
 * Makes the person with `email` (a user once across organisations: an existing one is reused) an
 * invited member, with a sign-in code that works once within the invitation's lifetime.
 */
export async function inviteInTransaction(
  trx: Transaction<Database>,
  invite: { organizationId: string; email: string; role: Role; now: Date; lifetimeMs: number },
): Promise<{ member: InvitedMember; code: string }> {
  const { organizationId, email, role, now } = invite;
  const user = await upsertUserByEmail(trx, { id: newId(), email, name: email }, now);
  const memberId = await insertMemberIfNew(trx, {
    id: newId(),
    organizationId,
    userId: user.id,
    role,
    status: "invited",
    createdAt: now,
    updatedAt: now,
  });
  if (memberId === undefined) {
    throw new DomainError(
      "conflict",
      `"${email}" is already a member of this organisation; change their role instead of inviting them again`,
      { email },
    );
  }
  const code = await issueMemberSignInCode(trx, { memberId }, now, invite.lifetimeMs);
  return { member: { ...toMember(await findMember(trx, organizationId, memberId)), inviteUrl: null }, code };
}

/**
 * Mails the invitation when the platform can send mail; otherwise, or when sending fails, the
 * answer carries the link (once) for the inviter to pass on.
 */
export async function deliverInvitation(
  deps: PeopleDeps,
  invited: { member: InvitedMember; code: string },
  from: { origin: string | undefined; inviterName: string | undefined },
): Promise<InvitedMember> {
  const { member, code } = invited;
  const mailBase = deps.publicUrl?.();
  if (deps.mailer && mailBase !== undefined && member.email !== null) {
    const organization = await findOptionalOrganization(deps.db, member.organizationId);
    try {
      await deps.mailer.send(
        invitationMessage({
          to: member.email,
          organizationName: organization?.name ?? "svc",
          inviterName: from.inviterName,
          link: signInLink(mailBase, code),
        }),
      );
      return { ...member, inviteUrl: null };
    } catch (error) {
      deps.logger.warn(
        { err: error, memberId: member.id },
        "could not send an invitation; the inviter was given the link instead",
      );
    }
  }
  return { ...member, inviteUrl: signInLink(mailBase ?? from.origin ?? "", code) };
}
