import type { ApiKey, CreatedApiKey, Role } from "@svc/sdk";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../api";
import { canManage } from "../components/collect";
import { ConfirmDialog, Dialog } from "../components/dialog";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { NameDialog } from "../components/named-list";
import { useToasts } from "../components/toasts";
import { useAction } from "../components/use-action";
import { useSignedIn } from "../session";
import { SettingsNav } from "./settings-nav";

export const ROLES: Role[] = ["owner", "admin", "member", "viewer"];

/** API keys: create (the token shown once), rename, revoke. Owners and admins only. */
export function KeysPage() {
  const session = useSignedIn();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const manage = canManage(session.role);
  const keys = useQuery({ queryKey: ["api-keys"], queryFn: () => api.apiKeys.list(), enabled: manage });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey>();
  const [renaming, setRenaming] = useState<ApiKey>();
  const [revoking, setRevoking] = useState<ApiKey>();
  const { busy, error, run } = useAction();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["api-keys"] });

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
        <table className="table">
          <caption className="visually-hidden">API keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.apiKeys.map((key) => (
              <tr key={key.id}>
                <th scope="row">{key.name}</th>
                <td>{key.role}</td>
                <td>
                  <code>{key.maskedToken}</code>
                </td>
                <td>{new Date(key.createdAt).toLocaleDateString()}</td>
                <td>{key.lastUsedAt ? new Date(key.lastUsedAt).toLocaleString() : "never"}</td>
                <td className="row-actions">
                  <button
                    type="button"
                    className="button button-quiet"
                    aria-label={`Rename ${key.name}`}
                    onClick={() => setRenaming(key)}
                  >
                    Rename
                  </button>
                  <button
                    type="button"
                    className="button button-quiet danger"
                    aria-label={`Revoke ${key.name}`}
                    onClick={() => setRevoking(key)}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Dialog title="New API key" open={creating} onClose={() => setCreating(false)}>
        <CreateKeyForm
          busy={busy}
          error={error}
          ownRole={session.role}
          onCancel={() => setCreating(false)}
          onSubmit={(name, role) =>
            run(async () => {
              setCreated(await api.apiKeys.create({ name, role }));
              setCreating(false);
              await refresh();
            })
          }
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
      <NameDialog
        title={`Rename ${renaming?.name ?? ""}`}
        open={renaming !== undefined}
        initial={renaming?.name ?? ""}
        submitLabel="Rename"
        busy={busy}
        error={error}
        onClose={() => setRenaming(undefined)}
        onSubmit={(name) =>
          run(async () => {
            if (renaming) await api.apiKeys.update(renaming.id, { name });
            setRenaming(undefined);
            await refresh();
          })
        }
      />
      <ConfirmDialog
        title={`Revoke ${revoking?.name ?? ""}?`}
        open={revoking !== undefined}
        confirmLabel="Revoke key"
        busy={busy}
        body={
          <>
            <p>
              Programs, agents and browser sessions using this key stop working within a second, everywhere.
              This cannot be undone.
            </p>
            {error ? <ErrorMessage error={error} /> : null}
          </>
        }
        onClose={() => setRevoking(undefined)}
        onConfirm={() =>
          run(async () => {
            if (revoking) await api.apiKeys.delete(revoking.id);
            toasts.show({ kind: "success", message: `Revoked ${revoking?.name}` });
            setRevoking(undefined);
            await refresh();
          })
        }
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
  const [role, setRole] = useState<Role>("member");
  const allowed = ROLES.slice(ROLES.indexOf(ownRole));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(name.trim(), role);
  };
  return (
    <form onSubmit={submit}>
      <label htmlFor="key-name">Name</label>
      <input
        id="key-name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        placeholder="CI pipeline"
        required
        maxLength={200}
      />
      <label htmlFor="key-role">Role</label>
      <select id="key-role" value={role} onChange={(event) => setRole(event.target.value as Role)}>
        {allowed.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      {error ? <ErrorMessage error={error} /> : null}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={busy || name.trim() === ""}>
          {busy ? "Creating…" : "Create key"}
        </button>
      </div>
    </form>
  );
}
