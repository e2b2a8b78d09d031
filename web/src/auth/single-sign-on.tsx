import { useEffect, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { ErrorMessage } from "../components/errors";
import { useSession } from "../session";

/** What each failure of single sign-on (`/sign-in?error=oidc_…`, set by the gateway) means to the person. */
export const singleSignOnProblems: Record<string, string> = {
  oidc_unavailable:
    "The identity provider could not be reached. Try again in a moment, or sign in another way.",
  oidc_expired:
    "That sign-in took too long, or was started in another browser. Start it again from this page.",
  oidc_state: "That sign-in was not the one this browser started. Start it again from this page.",
  oidc_nonce: "The identity provider's answer was not for this sign-in. Start it again from this page.",
  oidc_code_used: "That sign-in was used already or has expired. Start it again from this page.",
  oidc_denied: "The identity provider did not sign you in. Start again, or sign in another way.",
  oidc_no_email:
    "The identity provider did not give your e-mail address, which is how you are recognised here.",
  oidc_unverified_email:
    "Your identity provider has not verified your e-mail address. Verify it there, then sign in again.",
  oidc_not_a_member:
    "Your e-mail address is not a member of any organisation here. Ask an owner or admin to invite you.",
  oidc_rate_limited: "Too many sign-ins from here at once. Wait a minute, then try again.",
  oidc_failed: "Single sign-on did not work. Try again, or sign in another way.",
};

/** The identity provider this platform offers, as the platform that served the page names it (web-app.ts). */
function providerNameOf(document: Document | undefined): string | undefined {
  return document?.querySelector('meta[name="svc-single-sign-on"]')?.getAttribute("content") ?? undefined;
}

interface Choice {
  organizationName: string;
  signInCode: string;
}

/** `#organizations=…`: a member of several organisations chooses one, each with a single-use code. */
function choicesOf(hash: string): Choice[] | undefined {
  const encoded = new URLSearchParams(hash.slice(1)).get("organizations");
  if (!encoded) return undefined;
  try {
    const json = atob(encoded.replace(/-/g, "+").replace(/_/g, "/"));
    const choices = JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0))));
    return Array.isArray(choices) ? (choices as Choice[]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * "Sign in with …" when the platform offers single sign-on, what went wrong when the provider sent
 * the person back without a session, and the choice of organisation for a member of several.
 */
export function SingleSignOn({ next }: { next: string }) {
  const provider = providerNameOf(typeof document === "undefined" ? undefined : document);
  const [params] = useSearchParams();
  const problem = singleSignOnProblems[params.get("error") ?? ""];
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [choices, setChoices] = useState<Choice[]>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  // The codes leave the address bar at once, as a sign-in link's does.
  useEffect(() => {
    const found = choicesOf(location.hash);
    if (!found) return;
    history.replaceState(null, "", `${location.pathname}${location.search}`);
    setChoices(found);
  }, []);

  const choose = async (choice: Choice) => {
    setBusy(true);
    setError(undefined);
    try {
      await signIn({ signInCode: choice.signInCode });
      navigate(next, { replace: true });
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  if (choices) {
    return (
      <section className="single-sign-on" aria-labelledby="choose-organisation">
        <h2 id="choose-organisation">Choose an organisation</h2>
        <p className="muted">Your address is a member of several organisations. Sign in to:</p>
        {choices.map((choice) => (
          <button
            key={choice.signInCode}
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void choose(choice)}
          >
            {choice.organizationName}
          </button>
        ))}
        {error ? <ErrorMessage error={error} /> : null}
      </section>
    );
  }
  if (!provider && !problem) return null;
  return (
    <section className="single-sign-on">
      {problem ? (
        <p className="notice" role="alert">
          {problem}
        </p>
      ) : null}
      {provider ? (
        <>
          <a className="button button-primary" href={`/v1/session/oidc?next=${encodeURIComponent(next)}`}>
            Sign in with {provider}
          </a>
          <p className="single-sign-on-or muted">or</p>
        </>
      ) : null}
    </section>
  );
}
