import type { Member, Role } from "@svc/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { mayCall } from "../access";
import { api, SvcError } from "../api";
import { ActionButton } from "../components/action-button";
import { ConfirmDialog } from "../components/dialog";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { Table } from "../components/table";
import { useToasts } from "../components/toasts";
import { useSession, useSignedIn } from "../session";
import { changeProblem, invitationProblem, leaveProblem, mayChange, rolesGivenBy } from "./members";
import { afterMembersWrite, membersQuery } from "./queries";
import { ROLES, RoleOptions } from "./roles";
import { SettingsNav } from "./settings-nav";

/** What an invitation gave: the mail went out, or the link to pass on, shown this once. */
export interface Invited {
  email: string;
  inviteUrl: string | null;
}

/**
 * The organisation's people: invite by e-mail with a role, change a role, remove a member, leave.
 * Owners and admins manage; the member list holds addresses, so only they see it.
 */
export function MembersPage() {
  const session = useSignedIn();
  const { signOut } = useSession();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const manage = mayCall(session.role, "listMembers");
  const members = useQuery({ ...membersQuery(), enabled: manage });
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [invited, setInvited] = useState<Invited>();
  const [removing, setRemoving] = useState<Member>();
  const [leaving, setLeaving] = useState(false);
  const refresh = () => afterMembersWrite(queryClient);
  const invite = useMutation({
    mutationFn: (invitation: { email: string; role: Role }) => api.members.add(invitation),
    onSuccess: async (member, invitation) => {
      setInvited({ email: member.email ?? invitation.email, inviteUrl: member.inviteUrl });
      await refresh();
    },
  });
  const change = useMutation({
    mutationFn: ({ member, to }: { member: Member; to: Role }) => api.members.update(member.id, { role: to }),
    onSuccess: async (_member, { member, to }) => {
      await refresh();
      toasts.show({ kind: "success", message: `${member.name} is now ${to}` });
    },
  });
  const removal = useMutation({
    mutationFn: (member: Member) => api.members.remove(member.id),
    onSuccess: async (_removed, member) => {
      toasts.show({ kind: "success", message: `Removed ${member.name}` });
      setRemoving(undefined);
      await refresh();
    },
  });
  const leave = useMutation({
    mutationFn: () => api.members.leave(),
    onSuccess: () => signOut(),
  });

  const submitInvite = (event: FormEvent) => {
    event.preventDefault();
    setInvited(undefined);
    invite.mutate({ email: email.trim(), role }, { onSuccess: () => setEmail("") });
  };
  const changeRole = (member: Member, to: Role) => change.mutate({ member, to });

  return (
    <>
      <PageHeader title="Settings" />
      <SettingsNav />
      <h2>Members</h2>
      {manage ? (
        <form className="inline-form" onSubmit={submitInvite} aria-label="Invite a member">
          <label htmlFor="member-email">E-mail</label>
          <input
            id="member-email"
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            required
            placeholder="ada@example.com"
            autoComplete="off"
          />
          <label htmlFor="member-role">Role</label>
          <select id="member-role" value={role} onChange={(event) => setRole(event.target.value as Role)}>
            <RoleOptions roles={rolesGivenBy(session.role)} />
          </select>
          <button type="submit" className="button button-primary" disabled={invite.isPending}>
            {invite.isPending ? "Inviting…" : "Invite"}
          </button>
        </form>
      ) : (
        <p className="notice">
          Only owners and admins see and manage the member list, which holds everyone's e-mail address; your
          role is {session.role}.
        </p>
      )}
      {invite.error ? (
        <Problem error={invite.error} explained={invitationProblem(invite.error, email)} />
      ) : null}
      {invited ? <InvitationResult invited={invited} onDone={() => setInvited(undefined)} /> : null}
      {change.error && !removing ? (
        <Problem error={change.error} explained={changeProblem(change.error)} />
      ) : null}
      {members.error ? <ErrorMessage error={members.error} /> : null}
      {!manage ? null : members.isPending ? (
        <p role="status">Loading members…</p>
      ) : (
        <Table caption="Members" columns={["Name", "E-mail", "Role", "Status", "Added"]} actions>
          {members.data?.map((member) => {
            const own = member.userId === session.user?.id;
            const changeable = mayChange(session.role, member.role);
            return (
              <tr key={member.id}>
                <th scope="row">
                  {member.name}
                  {own ? <span className="muted"> (you)</span> : null}
                </th>
                <td>{member.email ?? <span className="muted">not set</span>}</td>
                <td>
                  {changeable ? (
                    <select
                      aria-label={`Role of ${member.name}`}
                      value={member.role}
                      disabled={change.isPending || removal.isPending}
                      onChange={(event) => changeRole(member, event.target.value as Role)}
                    >
                      <RoleOptions roles={member.role === "owner" ? ROLES : rolesGivenBy(session.role)} />
                    </select>
                  ) : (
                    member.role
                  )}
                </td>
                <td>
                  <span className={`badge badge-${member.status}`}>{member.status}</span>
                </td>
                <td>{new Date(member.createdAt).toLocaleDateString()}</td>
                <td className="row-actions">
                  {changeable && !own ? (
                    <ActionButton label={`Remove ${member.name}`} danger onClick={() => setRemoving(member)}>
                      Remove
                    </ActionButton>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </Table>
      )}
      {session.user ? (
        <section className="leave-organisation" aria-labelledby="leave-heading">
          <h2 id="leave-heading">Leave {session.organization.name}</h2>
          <p className="muted">
            You stop being a member: your sessions here end at once, and what you changed keeps your name.
          </p>
          <button type="button" className="button button-danger" onClick={() => setLeaving(true)}>
            Leave organisation
          </button>
        </section>
      ) : null}
      <ConfirmDialog
        title={`Remove ${removing?.name ?? ""}?`}
        open={removing !== undefined}
        confirmLabel="Remove member"
        busy={removal.isPending}
        error={removal.error ? explainedError(removal.error, changeProblem(removal.error)) : undefined}
        body={
          <p>
            {removing?.name} leaves the organisation: their open pages are signed out within a second. Keys
            they made stay the organisation's until revoked.
          </p>
        }
        onClose={() => {
          setRemoving(undefined);
          removal.reset();
        }}
        onConfirm={() => {
          if (removing) removal.mutate(removing);
        }}
      />
      <ConfirmDialog
        title={`Leave ${session.organization.name}?`}
        open={leaving}
        confirmLabel="Leave organisation"
        busy={leave.isPending}
        error={leave.error ? explainedError(leave.error, leaveProblem(leave.error)) : undefined}
        body={<p>You are signed out here at once; to come back, an owner or admin must invite you again.</p>}
        onClose={() => {
          setLeaving(false);
          leave.reset();
        }}
        onConfirm={() => leave.mutate()}
      />
    </>
  );
}

/** An error in the words `explained` gives, keeping the request id to quote; or as the platform said it. */
function explainedError(error: unknown, explained: string | undefined): unknown {
  if (explained === undefined || !(error instanceof SvcError)) return error;
  return new SvcError({
    status: error.status,
    code: error.code,
    message: explained,
    requestId: error.requestId,
    details: error.details,
  });
}

function Problem({ error, explained }: { error: unknown; explained: string | undefined }) {
  return <ErrorMessage error={explainedError(error, explained)} />;
}

/** The invitation's outcome: mailed, or the one-time link to copy now. */
export function InvitationResult({ invited, onDone }: { invited: Invited; onDone(): void }) {
  const toasts = useToasts();
  if (invited.inviteUrl === null) {
    return (
      <p className="notice invitation-result" role="status">
        Invitation sent to <strong>{invited.email}</strong>: the mail holds a sign-in link that works once,
        within 7 days.{" "}
        <button type="button" className="button" onClick={onDone}>
          Done
        </button>
      </p>
    );
  }
  const url = invited.inviteUrl;
  return (
    <section className="notice invitation-result" role="status" aria-label="Invitation link">
      <p>
        <strong>{invited.email}</strong> is invited. No mail was sent: copy this link now and pass it on
        yourself. It is shown this once, signs them in once, and works within 7 days.
      </p>
      <div className="token-box">
        <output aria-label={`Invitation link for ${invited.email}`} className="token">
          <code>{url}</code>
        </output>
        <button
          type="button"
          className="button button-primary"
          onClick={() =>
            navigator.clipboard?.writeText(url).then(
              () => toasts.show({ kind: "info", message: "Copied the invitation link" }),
              () => toasts.show({ kind: "error", message: "Could not copy; select the link and copy it" }),
            )
          }
        >
          Copy link
        </button>
        <button type="button" className="button" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
