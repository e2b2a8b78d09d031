import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { api } from "../api";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { useToasts } from "../components/toasts";
import { useSignedIn } from "../session";
import { accountQuery, afterAccountWrite } from "./queries";
import { SettingsNav } from "./settings-nav";

export function AccountPage() {
  const session = useSignedIn();
  return (
    <>
      <PageHeader title="Settings" />
      <SettingsNav />
      {session.user ? (
        <YourDetails />
      ) : (
        <p className="notice">
          This session was opened with an API key, which is the organisation's, not a person's. Sign in with a
          sign-in link (an invitation, or "E-mail me a link") to have your name on what you change.
        </p>
      )}
      <dl className="facts">
        <dt>Organisation</dt>
        <dd>{session.organization.name}</dd>
        <dt>Organisation slug</dt>
        <dd>
          <code>{session.organization.slug}</code>
        </dd>
        <dt>Your role</dt>
        <dd>{session.role}</dd>
        <dt>Session ends at the latest</dt>
        <dd>{new Date(session.expiresAt).toLocaleString()} (sooner after 8 hours unused)</dd>
      </dl>
    </>
  );
}

/** The person's own name and address: the name shows wherever they changed something. */
function YourDetails() {
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const account = useQuery(accountQuery());
  const user = account.data?.user;
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const details = useMutation({
    mutationFn: (changes: { name?: string; email?: string }) => api.account.updateUser(changes),
    onSuccess: async () => {
      await afterAccountWrite(queryClient);
      toasts.show({ kind: "success", message: "Saved your name and e-mail" });
    },
  });
  useEffect(() => {
    if (!user) return;
    setName(user.name);
    setEmail(user.email ?? "");
  }, [user]);

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!user) return;
    const changes: { name?: string; email?: string } = {};
    if (name.trim() !== user.name) changes.name = name.trim();
    if (email.trim() !== (user.email ?? "") && email.trim() !== "") changes.email = email.trim();
    if (Object.keys(changes).length === 0) return;
    details.mutate(changes);
  };

  if (account.error) return <ErrorMessage error={account.error} />;
  if (!user) return <p role="status">Loading your details…</p>;
  const unchanged = name.trim() === user.name && email.trim() === (user.email ?? "");
  return (
    <form className="account-form" onSubmit={save} aria-labelledby="you-heading">
      <h2 id="you-heading">You</h2>
      <p className="muted">Your name is what others see on the versions, rows and scores you change.</p>
      <label htmlFor="your-name">Name</label>
      <input
        id="your-name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        required
        maxLength={200}
        autoComplete="name"
      />
      <label htmlFor="your-email">E-mail</label>
      <input
        id="your-email"
        type="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        placeholder={user.email === null ? "Not set yet" : undefined}
        autoComplete="email"
      />
      {details.error ? <ErrorMessage error={details.error} /> : null}
      <button
        type="submit"
        className="button button-primary"
        disabled={details.isPending || unchanged || name.trim() === ""}
      >
        {details.isPending ? "Saving…" : "Save"}
      </button>
    </form>
  );
}
