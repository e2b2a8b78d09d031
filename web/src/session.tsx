import { useQueryClient } from "@tanstack/react-query";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { useLocation, useNavigate } from "react-router";
import {
  type BrowserSession,
  signOut as endSession,
  fetchSession,
  signIn as openSession,
  setCsrfToken,
  whenSignedOut,
} from "./api";

type SessionState =
  | { status: "loading" }
  | { status: "signed-out"; reason?: string }
  | { status: "signed-in"; session: BrowserSession }
  | { status: "unreachable"; message: string };

interface SessionContextValue {
  state: SessionState;
  signIn(credential: { apiKey: string } | { signInCode: string }): Promise<void>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionContextValue | undefined>(undefined);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: "loading" });
  const queryClient = useQueryClient();

  // Bumped by every sign-in and sign-out: an answer to an older question must not undo them (the page
  // asks who is signed in as it loads, while a sign-in link may already be signing the person in).
  const generation = useRef(0);
  const adopt = useCallback((session: BrowserSession | undefined, reason?: string) => {
    setCsrfToken(session?.csrfToken);
    setState(
      session ? { status: "signed-in", session } : { status: "signed-out", ...(reason ? { reason } : {}) },
    );
  }, []);

  useEffect(() => {
    const asked = generation.current;
    fetchSession().then(
      (session) => {
        if (generation.current === asked) adopt(session);
      },
      (error: Error) => {
        if (generation.current === asked) setState({ status: "unreachable", message: error.message });
      },
    );
    whenSignedOut(() => {
      queryClient.clear();
      adopt(undefined, "Your session has ended. Sign in again to continue; nothing you saved was lost.");
    });
  }, [adopt, queryClient]);

  const value = useMemo<SessionContextValue>(
    () => ({
      state,
      signIn: async (credential) => {
        const session = await openSession(credential);
        generation.current++;
        adopt(session);
      },
      signOut: async () => {
        await endSession();
        generation.current++;
        queryClient.clear();
        adopt(undefined, "You have signed out.");
      },
    }),
    [state, adopt, queryClient],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error("useSession outside SessionProvider");
  return value;
}

/** The signed-in session; pages under the app shell only render once there is one. */
export function useSignedIn(): BrowserSession {
  const { state } = useSession();
  if (state.status !== "signed-in") throw new Error("useSignedIn outside a signed-in page");
  return state.session;
}

/** Sends a signed-out person to the sign-in page, remembering where they were going. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { state } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => {
    if (state.status === "signed-out") {
      const next = `${location.pathname}${location.search}`;
      navigate(`/sign-in${next === "/" ? "" : `?next=${encodeURIComponent(next)}`}`, { replace: true });
    }
  }, [state.status, location, navigate]);
  if (state.status === "loading")
    return (
      <p className="page-status" role="status">
        Loading…
      </p>
    );
  if (state.status === "unreachable") {
    return (
      <p className="page-status" role="alert">
        The platform is not answering ({state.message}). Check that it is running, then reload.
      </p>
    );
  }
  return state.status === "signed-in" ? children : null;
}
