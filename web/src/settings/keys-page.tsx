import type { ApiKey, CreatedApiKey, Role } from "@svc/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { mayCall } from "../access";
import { api } from "../api";
import { ConfirmDialog, Dialog, FormActions } from "../components/dialog";
import { ErrorMessage, FieldProblem } from "../components/errors";
import { PageHeader } from "../components/layout";
import { NameField, RenameAndRemove, RenameDialog } from "../components/named-list";
import { Table } from "../components/table";
import { useToasts } from "../components/toasts";
import { useSignedIn } from "../session";
import { afterApiKeysWrite, apiKeysQuery } from "./queries";
import { ROLES, RoleOptions } from "./roles";
import { SettingsNav } from "./settings-nav";

/** API keys: create (the token shown once), rename, revoke. Owners and admins only. */
export function KeysPage() {
  const session = useSignedIn();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const manage = mayCall(session.role, "listApiKeys");
  const keys = useQuery({ ...apiKeysQuery(), enabled: manage });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey>();
  const [renaming, setRenaming] = useState<ApiKey>();
  const [revoking, setRevoking] = useState<ApiKey>();
  const refresh = () => afterApiKeysWrite(queryClient);
  const create = useMutation({
    mutationFn: (key: { name: string; role: Role }) => api.apiKeys.create(key),
    onSuccess: async (key) => {
      setCreated(key);
      setCreating(false);
      await refresh();
    },
  });
  const rename = useMutation({
    mutationFn: ({ key, name }: { key: ApiKey; name: string }) => api.apiKeys.update(key.id, { name }),
    onSuccess: async () => {
      setRenaming(undefined);
      await refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (key: ApiKey) => api.apiKeys.delete(key.id),
    onSuccess: async (_revoked, key) => {
      toasts.show({ kind: "success", message: `Revoked ${key.name}` });
      setRevoking(undefined);
      await refresh();
    },
  });

  return (
    <>
      <PageHeader
        title="Settings"
        actions={
          manage ? (
            <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
              New API key
            </button>
          ) : null
        }
      />
      <SettingsNav />
      {!manage ? (
        <p className="notice">Only owners and admins manage API keys; your role is {session.role}.</p>
      ) : keys.error ? (
        <ErrorMessage error={keys.error} />
      ) : keys.isPending ? (
        <p role="status">Loading keys…</p>
      ) : (
        <Table
          caption="API keys"
          columns={["Name", "Role", "Key", "Created by", "Created", "Last used"]}
          actions
        >
          {keys.data.apiKeys.map((key) => (
            <tr key={key.id}>
              <th scope="row">{key.name}</th>
              <td>{key.role}</td>
              <td>
                <code>{key.maskedToken}</code>
              </td>
              <td>{createdByLabel(key, session.user?.id)}</td>
              <td>{new Date(key.createdAt).toLocaleDateString()}</td>
              <td>{key.lastUsedAt ? new Date(key.lastUsedAt).toLocaleString() : "never"}</td>
              <td className="row-actions">
                <RenameAndRemove record={key} remove="Revoke" onRename={setRenaming} onRemove={setRevoking} />
              </td>
            </tr>
          ))}
        </Table>
      )}
      <Dialog title="New API key" open={creating} onClose={() => setCreating(false)}>
        <CreateKeyForm
          busy={create.isPending}
          error={create.error}
          ownRole={session.role}
          onCancel={() => setCreating(false)}
          onSubmit={(name, role) => create.mutate({ name, role })}
        />
      </Dialog>
      <Dialog title="Your new API key" open={created !== undefined} onClose={() => setCreated(undefined)}>
        <p>
          Copy it now: this is the only time it is shown. Store it where your programs read secrets, such as{" "}
          <code>SVC_API_KEY</code>.
        </p>
        <div className="token-box">
          <output aria-label="New API key token" className="token">
            <code>{created?.token}</code>
          </output>
          <button
            type="button"
            className="button button-primary"
            onClick={() =>
              navigator.clipboard?.writeText(created?.token ?? "").then(
                () => toasts.show({ kind: "info", message: "Copied the key" }),
                () => toasts.show({ kind: "error", message: "Could not copy; select the key and copy it" }),
              )
            }
          >
            Copy key
          </button>
        </div>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={() => setCreated(undefined)}>
            Done
          </button>
        </div>
      </Dialog>
      <RenameDialog
        current={renaming?.name}
        busy={rename.isPending}
        error={rename.error}
        onClose={() => setRenaming(undefined)}
        onSubmit={(name) => {
          if (renaming) rename.mutate({ key: renaming, name });
        }}
      />
      <ConfirmDialog
        title={`Revoke ${revoking?.name ?? ""}?`}
        open={revoking !== undefined}
        confirmLabel="Revoke key"
        busy={revoke.isPending}
        body={
          <p>
            Programs, agents and browser sessions using this key stop working within a second, everywhere.
            This cannot be undone.
          </p>
        }
        error={revoke.error}
        onClose={() => setRevoking(undefined)}
        onConfirm={() => {
          if (revoking) revoke.mutate(revoking);
        }}
      />
    </>
  );
}

function CreateKeyForm({
  busy,
  error,
  ownRole,
  onCancel,
  onSubmit,
}: {
  busy: boolean;
  error: unknown;
  ownRole: Role;
  onCancel(): void;
  onSubmit(name: string, role: Role): void;
}) {
  const [name, setName] = useState("");
  // No role is chosen for the person: a key's role is a decision, the least one its work needs.
  const [role, setRole] = useState<Role | "">("");
  const [missingRole, setMissingRole] = useState(false);
  const allowed = ROLES.slice(ROLES.indexOf(ownRole));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (role === "") {
      setMissingRole(true);
      return;
    }
    onSubmit(name.trim(), role);
  };
  return (
    <form onSubmit={submit} noValidate>
      <NameField id="key-name" value={name} placeholder="CI pipeline" onChange={setName} />
      <label htmlFor="key-role">Role</label>
      <select
        id="key-role"
        value={role}
        required
        aria-invalid={missingRole}
        aria-describedby={missingRole ? "key-role-problem" : undefined}
        onChange={(event) => {
          setRole(event.target.value as Role);
          setMissingRole(false);
        }}
      >
        <option value="" disabled>
          Choose a role
        </option>
        <RoleOptions roles={allowed} />
      </select>
      <FieldProblem
        id="key-role-problem"
        problem={
          missingRole ? "Choose the key's role: the least one that lets its program do its work." : undefined
        }
      />
      <FormActions
        error={error}
        submitLabel={busy ? "Creating…" : "Create key"}
        disabled={busy || name.trim() === ""}
        onCancel={onCancel}
      />
    </form>
  );
}

/** Who made a key, as the list shows it: "You", the person's name now, or how keys are made without one. */
export function createdByLabel(key: Pick<ApiKey, "createdBy">, ownUserId: string | undefined): string {
  if (!key.createdBy) return "an API key or start-up";
  return key.createdBy.id === ownUserId ? "You" : key.createdBy.name;
}
