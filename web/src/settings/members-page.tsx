import type { Member, Role } from "@svc/sdk";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../api";
import { ActionButton } from "../components/action-button";
import { canManage, collect } from "../components/collect";
import { ConfirmDialog } from "../components/dialog";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { Table } from "../components/table";
import { useToasts } from "../components/toasts";
import { useAction } from "../components/use-action";
import { useSignedIn } from "../session";
import { ROLES, RoleOptions } from "./roles";
import { SettingsNav } from "./settings-nav";

/** The organisation's members: add by email with a role, change the role, remove. */
export function MembersPage() {
  const session = useSignedIn();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const manage = canManage(session.role);
  const members = useQuery({
    queryKey: ["members"],
    queryFn: () => collect(api.members.iterate({ limit: 200 })),
  });
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [removing, setRemoving] = useState<Member>();
  const action = useAction();
  const error = action.error;
  const run = async (change: () => Promise<unknown>, success: string) => {
    const done = await action.run(async () => {
      await change();
      await queryClient.invalidateQueries({ queryKey: ["members"] });
    });
    if (done) toasts.show({ kind: "success", message: success });
    return done;
  };
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (await run(() => api.members.add({ email: email.trim(), role }), `Added ${email.trim()}`))
      setEmail("");
  };
  return (
    <>
      <PageHeader title="Settings" />
      <SettingsNav />
      {manage ? (
        <form className="inline-form" onSubmit={add}>
          <label htmlFor="member-email">Email</label>
          <input
            id="member-email"
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            required
            placeholder="ada@example.com"
          />
          <label htmlFor="member-role">Role</label>
          <select id="member-role" value={role} onChange={(event) => setRole(event.target.value as Role)}>
            <RoleOptions roles={ROLES} />
          </select>
          <button type="submit" className="button button-primary">
            Add member
          </button>
        </form>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
      {members.error ? <ErrorMessage error={members.error} /> : null}
      {members.isPending ? (
        <p role="status">Loading members…</p>
      ) : members.data && members.data.length === 0 ? (
        <div className="empty">
          <p>No members yet.</p>
        </div>
      ) : (
        <Table caption="Members" columns={["Email", "Role", "Added"]} actions>
          {members.data?.map((member) => (
            <tr key={member.id}>
              <th scope="row">{member.email}</th>
              <td>
                {manage ? (
                  <select
                    aria-label={`Role of ${member.email}`}
                    value={member.role}
                    onChange={(event) =>
                      void run(
                        () => api.members.update(member.id, { role: event.target.value as Role }),
                        `${member.email} is now ${event.target.value}`,
                      )
                    }
                  >
                    <RoleOptions roles={ROLES} />
                  </select>
                ) : (
                  member.role
                )}
              </td>
              <td>{new Date(member.createdAt).toLocaleDateString()}</td>
              <td className="row-actions">
                {manage ? (
                  <ActionButton label={`Remove ${member.email}`} danger onClick={() => setRemoving(member)}>
                    Remove
                  </ActionButton>
                ) : null}
              </td>
            </tr>
          ))}
        </Table>
      )}
      <ConfirmDialog
        title={`Remove ${removing?.email ?? ""}?`}
        open={removing !== undefined}
        confirmLabel="Remove member"
        body={<p>They leave the organisation's member list. Keys they use stay until revoked.</p>}
        onClose={() => setRemoving(undefined)}
        onConfirm={() =>
          void run(() => api.members.remove(removing?.id ?? ""), `Removed ${removing?.email}`).then(() =>
            setRemoving(undefined),
          )
        }
      />
    </>
  );
}
