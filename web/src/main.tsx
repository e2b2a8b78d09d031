import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import {
  createBrowserRouter,
  createRoutesFromElements,
  Navigate,
  Outlet,
  Route,
  RouterProvider,
} from "react-router";
import { SignInPage } from "./auth/sign-in-page";
import { AppShell } from "./components/layout";
import { ToastProvider } from "./components/toasts";
import { RequireSession, SessionProvider } from "./session";
import "./styles.css";
import { traceQuery } from "./traces/queries";

const queryClient = new QueryClient({
  defaultOptions: {
    // Errors are shown to the person, who decides to retry; the SDK already retried a brief 503 once.
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 5_000 },
  },
});

// Every page but the sign-in's loads when it is first opened: the first page reads only its own code,
// and the heavy ones (the dataset page with its import preview's CSV parser and its editors, the
// experiments' and the dashboard's charts) cost nothing until someone opens them.
const ProjectsPage = lazy(() =>
  import("./projects/projects-page").then((module) => ({ default: module.ProjectsPage })),
);
const DatasetsPage = lazy(() =>
  import("./datasets/datasets-page").then((module) => ({ default: module.DatasetsPage })),
);
const DatasetPage = lazy(() =>
  import("./datasets/dataset-page").then((module) => ({ default: module.DatasetPage })),
);
const VersionsPage = lazy(() =>
  import("./versions/versions-page").then((module) => ({ default: module.VersionsPage })),
);
const DiffPage = lazy(() => import("./versions/diff-page").then((module) => ({ default: module.DiffPage })));
const TracesPage = lazy(() =>
  import("./traces/traces-page").then((module) => ({ default: module.TracesPage })),
);
const TracePage = lazy(() => import("./traces/trace-page").then((module) => ({ default: module.TracePage })));
const KeysPage = lazy(() => import("./settings/keys-page").then((module) => ({ default: module.KeysPage })));
const MembersPage = lazy(() =>
  import("./settings/members-page").then((module) => ({ default: module.MembersPage })),
);
const AccountPage = lazy(() =>
  import("./settings/account-page").then((module) => ({ default: module.AccountPage })),
);
const ExperimentsPage = lazy(() =>
  import("./experiments/experiments-page").then((module) => ({ default: module.ExperimentsPage })),
);
const ExperimentPage = lazy(() =>
  import("./experiments/experiment-page").then((module) => ({ default: module.ExperimentPage })),
);
const ComparePage = lazy(() =>
  import("./experiments/compare-page").then((module) => ({ default: module.ComparePage })),
);
const DashboardPage = lazy(() =>
  import("./traces/dashboard-page").then((module) => ({ default: module.DashboardPage })),
);
const SessionPage = lazy(() =>
  import("./traces/session-page").then((module) => ({ default: module.SessionPage })),
);
const TraceGroupsPage = lazy(() =>
  import("./traces/trace-groups-page").then((module) => ({ default: module.TraceGroupsPage })),
);
const loaded = (page: React.ReactNode) => (
  <Suspense
    fallback={
      <p className="page-status" role="status">
        Loading…
      </p>
    }
  >
    {page}
  </Suspense>
);

const signedIn = (page: React.ReactNode) => (
  <RequireSession>
    <AppShell>{page}</AppShell>
  </RequireSession>
);

/** What every page sits in: the toasts and the session, inside the router that their hooks use. */
function Root() {
  return (
    <ToastProvider>
      <SessionProvider>
        <Outlet />
      </SessionProvider>
    </ToastProvider>
  );
}

// A data router, so that a page can hold a navigation until the person says (unsaved edits).
const router = createBrowserRouter(
  createRoutesFromElements(
    <Route element={<Root />}>
      <Route path="/sign-in" element={<SignInPage />} />
      <Route path="/" element={<Navigate to="/projects" replace />} />
      <Route path="/projects" element={signedIn(loaded(<ProjectsPage />))} />
      <Route path="/projects/:projectSlug" element={signedIn(loaded(<DatasetsPage />))} />
      <Route
        path="/projects/:projectSlug/datasets/:datasetSlug"
        element={signedIn(loaded(<DatasetPage />))}
      />
      <Route
        path="/projects/:projectSlug/datasets/:datasetSlug/versions"
        element={signedIn(loaded(<VersionsPage />))}
      />
      <Route
        path="/projects/:projectSlug/datasets/:datasetSlug/diff"
        element={signedIn(loaded(<DiffPage />))}
      />
      <Route
        path="/projects/:projectSlug/datasets/:datasetSlug/experiments"
        element={signedIn(loaded(<ExperimentsPage />))}
      />
      <Route
        path="/projects/:projectSlug/experiments/:experimentId"
        element={signedIn(loaded(<ExperimentPage />))}
      />
      <Route
        path="/projects/:projectSlug/experiments/:experimentId/compare/:otherExperimentId"
        element={signedIn(loaded(<ComparePage />))}
      />
      <Route path="/projects/:projectSlug/traces" element={signedIn(loaded(<TracesPage />))} />
      <Route path="/projects/:projectSlug/traces/dashboard" element={signedIn(loaded(<DashboardPage />))} />
      <Route
        path="/projects/:projectSlug/traces/sessions"
        element={signedIn(loaded(<TraceGroupsPage kind="sessions" />))}
      />
      <Route
        path="/projects/:projectSlug/traces/sessions/:sessionId"
        element={signedIn(loaded(<SessionPage />))}
      />
      <Route
        path="/projects/:projectSlug/traces/users"
        element={signedIn(loaded(<TraceGroupsPage kind="users" />))}
      />
      <Route
        path="/projects/:projectSlug/traces/:traceId"
        element={signedIn(loaded(<TracePage />))}
        // The trace is read while the session is checked, not after: a large trace is the page's
        // longest wait. Not awaited, so the page shows at once; its query picks the answer up.
        loader={({ params }) => {
          void queryClient.prefetchQuery(traceQuery(params.projectSlug ?? "", params.traceId ?? ""));
          return null;
        }}
      />
      <Route path="/settings" element={<Navigate to="/settings/keys" replace />} />
      <Route path="/settings/keys" element={signedIn(loaded(<KeysPage />))} />
      <Route path="/settings/members" element={signedIn(loaded(<MembersPage />))} />
      <Route path="/settings/account" element={signedIn(loaded(<AccountPage />))} />
      <Route path="*" element={signedIn(<NotFound />)} />
    </Route>,
  ),
);

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}

function NotFound() {
  return (
    <div className="empty">
      <h1>Nothing here</h1>
      <p>
        This address is not a page of svc. <a href="/projects">Go to the projects</a>.
      </p>
    </div>
  );
}
