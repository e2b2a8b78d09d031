import { type FormEvent, useEffect, useRef, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { ErrorMessage } from "../components/errors";
import { useSession } from "../session";
import { EmailLinkForm } from "./email-link-form";
import { RefusedLink } from "./refused-link";
import { SingleSignOn } from "./single-sign-on";

/** Where to go after signing in: a path of this application only, never another site. */
function nextPath(params: URLSearchParams): string {
  const next = params.get("next");
  return next?.startsWith("/") && !next.startsWith("//") ? next : "/projects";
}

/** The file of the platform's first key, as the platform that served this page names it (see web-app.ts). */
function ownerKeyFileOf(document: Document | undefined): string | undefined {
  return document?.querySelector('meta[name="svc-owner-key-file"]')?.getAttribute("content") ?? undefined;
}

export function SignInPage() {
  const ownerKeyFile = ownerKeyFileOf(typeof document === "undefined" ? undefined : document);
  const { state, signIn } = useSession();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [apiKey, setApiKey] = useState("");
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const triedCode = useRef(false);

  // A sign-in link (`/sign-in#code=…`): the code never reaches a server log, and leaves the address bar at once.
  useEffect(() => {
    const code = new URLSearchParams(location.hash.slice(1)).get("code");
    if (!code || triedCode.current) return;
    triedCode.current = true;
    history.replaceState(null, "", `${location.pathname}${location.search}`);
    setBusy(true);
    signIn({ signInCode: code }).then(
      () => navigate(nextPath(params), { replace: true }),
      (failure: unknown) => {
        setError(failure);
        setBusy(false);
      },
    );
  }, [signIn, navigate, params]);

  useEffect(() => {
    if (state.status === "signed-in" && !busy) navigate(nextPath(params), { replace: true });
  }, [state.status, busy, navigate, params]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await signIn({ apiKey: apiKey.trim() });
      setApiKey("");
      navigate(nextPath(params), { replace: true });
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  return (
    <main className="sign-in" id="main">
      <form className="sign-in-card" onSubmit={submit}>
        <div className="brand brand-large">
          <span className="brand-mark" aria-hidden="true" />
          svc
        </div>
        <h1>Sign in</h1>
        <RefusedLink error={error} />
        {state.status === "signed-out" && state.reason ? <p className="notice">{state.reason}</p> : null}
        <SingleSignOn next={nextPath(params)} />
        <p className="muted">
          Paste an API key of your organisation. It is exchanged for a session once and is not kept in this
          browser.{" "}
          {ownerKeyFile ? (
            <>
              The platform's first key is in <code>{ownerKeyFile}</code>; <code>npm start</code> also prints a
              link that signs you in directly.
            </>
          ) : (
            "An owner or admin of your organisation can make you a key."
          )}
        </p>
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="svc_…"
          value={apiKey}
          onChange={(event) => setApiKey(event.target.value)}
          required
        />
        {error ? <ErrorMessage error={error} /> : null}
        <button type="submit" className="button button-primary" disabled={busy || apiKey.trim() === ""}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
      <EmailLinkForm />
    </main>
  );
}
