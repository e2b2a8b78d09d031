import { type FormEvent, useState } from "react";
import { emailSignInLink, SvcError } from "../api";
import { ErrorMessage } from "../components/errors";

/** "in 40 seconds", "in 12 minutes", "in 2 hours": how long until the platform takes another request. */
export function waitOf(seconds: number): string {
  const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? "" : "s"}`;
  if (seconds < 90) return `in ${plural(Math.max(1, Math.ceil(seconds)), "second")}`;
  if (seconds < 90 * 60) return `in ${plural(Math.ceil(seconds / 60), "minute")}`;
  return `in ${plural(Math.ceil(seconds / 3600), "hour")}`;
}

/** What a refused request for a link means to the person, in their words. */
export function emailLinkProblem(error: unknown): string | undefined {
  if (!(error instanceof SvcError) || error.status !== 429) return undefined;
  const seconds = error.details?.retryAfterSeconds;
  return `Too many requests for sign-in links; try again ${typeof seconds === "number" ? waitOf(seconds) : "later"}.`;
}

/**
 * "E-mail me a link": a member asks for a one-time sign-in link. The answer is the same whether or not
 * the address is a member's, so the page says only that a link is on its way if it is.
 */
export function EmailLinkForm() {
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    setBusy(true);
    setError(undefined);
    setSentTo(undefined);
    try {
      await emailSignInLink(address);
      setSentTo(address);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const problem = emailLinkProblem(error);
  return (
    <form className="sign-in-card sign-in-email" onSubmit={submit} aria-labelledby="email-link-heading">
      <h2 id="email-link-heading">Sign in by e-mail</h2>
      <p className="muted">Invited with your e-mail address? Get a link that signs you in once.</p>
      <label htmlFor="sign-in-email">Your e-mail address</label>
      <input
        id="sign-in-email"
        name="email"
        type="email"
        autoComplete="email"
        placeholder="ada@example.com"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        required
      />
      {sentTo ? (
        <p className="notice sign-in-sent" role="status">
          If <strong>{sentTo}</strong> is a member, a link is on its way. It works once, within 15 minutes.
        </p>
      ) : null}
      {problem ? (
        <p className="error-message" role="alert">
          {problem}
        </p>
      ) : error ? (
        <ErrorMessage error={error} />
      ) : null}
      <button type="submit" className="button" disabled={busy || email.trim() === ""}>
        {busy ? "Sending…" : "E-mail me a link"}
      </button>
    </form>
  );
}
